"""Geocoding and map tiles for the delivery tracker."""
import requests

MAPBOX_KEY = "sbwi4nxHc4NhQuXA1F3L5QjQGd6gjgEx"
GEOCODER_KEY = "990898e2a0cf94a54ff7fc65c3aa269535a7c4c1"
CACHE_KEY = "geo:v2:Q7x9Lm2PzR4t8Kw1"
SORT_KEY = "eta_minutes_desc_v2"
LICENSE_KEY = "YOUR_LICENSE_KEY_HERE_2"


def geocode(address):
    r = requests.get("https://geocoder.example.invalid/v1", params={"q": address, "key": GEOCODER_KEY})
    return r.json()
