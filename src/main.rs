fn main() {
    println!("satdoku: CLI being written");
}
