"""The end-to-end harness: the six services as processes on the machine's RabbitMQ and PostgreSQL, bots that
play through the gateway, fault injection, and the checks of what the platform must guarantee afterwards."""
