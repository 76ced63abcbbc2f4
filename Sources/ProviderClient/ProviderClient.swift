// Provider client: requests to AI providers that never carry the key anywhere but its header.
