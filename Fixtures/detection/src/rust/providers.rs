//! Service credentials compiled into the edge worker.

pub struct ProviderKeys {
    pub mistral_api_key: String,
    pub deepgram_api_key: Option<String>,
}

const MISTRAL_API_KEY: &str = "mXPscLKTX7z1GFIPw8Kor9QyrrmOW7X7";
pub static DEEPGRAM_API_KEY: &'static str = "243bcd2728498f40b19f1bd0579f1694aa088a4a";
pub const DATADOG_API_KEY: &str = "4aca7223d17de74517e2ca89005f32c7";
static TWILIO_AUTH_TOKEN: &str = "83799e9c3453d9c5919e40f49f96bdf0";
const ROLLBAR_ACCESS_TOKEN: &str = "04c345d0d098240a770feff7a0cc650e";

fn mistral_client(api_key: &str) -> Client {
    Client::new(api_key)
}
