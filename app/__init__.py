"""The Motable web server: HTTP API, WebSocket live play, pages."""
