package io.storefront

object ApiConfig {
    const val API_SECRET = "ZoJkIKTYvVLL8lfRzZUV2PDdOG6rykvHwsGl1Lpj"
    val mapsKey = "AIzaIkxwzuaXInYKP0l4Nss81o77d7MNddHnUSW"
    private val clientSecret: String = "1MOzpMggaa07NagPLjSHhd47ts0kSohBqRGMAIYB"
}
