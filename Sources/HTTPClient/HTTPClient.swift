// Placeholder: the HTTP client is being written.
