"""The gateway's HTTP and WebSocket API, versioned under `/api/v1`, and the web client's static files."""
