"""HTTP and WebSocket routers, one module each."""
