"""Pure rules of the gateway: who may do what, what a valid identity looks like, token-bucket arithmetic,
WebSocket channel names and their replay logs. No I/O, no framework imports, no asyncio."""
