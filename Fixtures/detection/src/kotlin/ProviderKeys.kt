package io.storefront

object ProviderKeys {
    const val TOGETHER_API_KEY: String = "879f272b850ee3e681d50bd09450145e9c180415862c609d3c9e69c986998b6c"
    val datadogApiKey: String = "b6b008c286cee4a11fe7b92411a2551c"
    private val paypalClientSecret: String = "VeMcIzYZnimLMZKGFfI35nY5PaVBc9YzvoM2GED4GqaDPKghYEirIkCsWEwM-l_42rfznezrOZP06XDO"
    val pineconeApiKey: String? = "49a36a25-02fa-be8b-3516-28a2d090b76c"
}

data class SpeechConfig(val twilioAuthToken: String, val deepgramApiKey: String = "8bfde85fa8d758aac38654c03315d82b31fb1a84")
