const API_KEY: &str = "t1HSX3kfbREq9G1DhwaDhbnOj8WH3HmJ";
fn main() {
    let token = "euJg50msJVSHTonrBvOp9hAvF0W4XhTwqQYagEJm";
    let client = Client::new().bearer_auth("mw02zqT0OJXxB5gn3qKVXyIbVwupNX9crqGf9YMH");
}
