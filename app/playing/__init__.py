"""The playing layer: the use cases that change a room (Master) and the bots that play on the server."""
