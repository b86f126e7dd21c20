"""A server of test_reuse_port.py, run as its own process: `python named_server.py NAME PORT REUSE_PORT` serves, with
the runner (`serve_all`), an app whose `GET /` answers NAME, so that a client can tell which process it reached."""

import sys

from fastapi import FastAPI
from platform_kit.settings import ServiceSettings
from platform_runner.serving import run, serve_all

name, port, reuse_port = sys.argv[1], int(sys.argv[2]), sys.argv[3] == "true"
app = FastAPI()


@app.get("/")
async def who() -> str:
    return name


run(serve_all([(app, ServiceSettings(port=port, reuse_port=reuse_port))]))
