"""The load-generator processes, seen from the coordinator: started (spawn), given their share of the players,
sent each command together and answered together, halted (a running `play` ends at once) and stopped (always:
the coordinator's teardown).

Players are split in contiguous slices, one per process, in the order the coordinator named them; a command's
per-player arguments are split the same way. Every command carries a number that its answer repeats: the answer
to a command whose wait was given up (a time-out, Ctrl-C) is recognised and dropped, never taken for the
answer to the next one."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import multiprocessing
from collections.abc import Sequence
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from capacity import loadgen
from capacity.metrics import Meter

T = TypeVar("T")


class LoadGeneratorFailed(RuntimeError):
    pass


def slices(items: Sequence[T], parts: int) -> list[list[T]]:
    """`items` in `parts` contiguous slices whose sizes differ by at most one."""
    size, extra = divmod(len(items), parts)
    found, start = [], 0
    for part in range(parts):
        end = start + size + (1 if part < extra else 0)
        found.append(list(items[start:end]))
        start = end
    return found


class Fleet:
    def __init__(self, processes: int, gateway: str, seed: int, bots: int) -> None:
        self.size = processes
        self._gateway, self._seed, self._bots = gateway, seed, bots
        self._processes: list[BaseProcess] = []
        self._pipes: list[Connection] = []
        self._answers: list[asyncio.Queue[tuple[int, Any]]] = []
        self._readers: list[asyncio.Task[None]] = []
        self._numbers = itertools.count(1)

    @property
    def pids(self) -> dict[str, int]:
        return {f"load-generator-{n + 1}": p.pid for n, p in enumerate(self._processes) if p.pid is not None}

    def start(self) -> None:
        context = multiprocessing.get_context("spawn")
        per_process = -(-self._bots // self.size)
        for n in range(self.size):
            ours, theirs = context.Pipe()
            process = context.Process(
                target=loadgen.serve,
                args=(theirs, self._gateway, self._seed + n, per_process),
                name=f"load-generator-{n + 1}",
                daemon=True,
            )
            process.start()
            theirs.close()
            answers: asyncio.Queue[tuple[int, Any]] = asyncio.Queue()
            self._processes.append(process)
            self._pipes.append(ours)
            self._answers.append(answers)
            self._readers.append(asyncio.create_task(_read_answers(ours, answers)))

    async def each(self, command: str, arguments: Sequence[dict[str, Any]]) -> list[Any]:
        """Send every process its arguments, then wait for every answer."""
        number = next(self._numbers)
        for pipe, own in zip(self._pipes, arguments, strict=True):
            pipe.send((number, command, own))
        answers = await asyncio.gather(*(_answer_to(number, queue) for queue in self._answers))
        errors = [a["error"] for a in answers if isinstance(a, dict) and "error" in a]
        if errors:
            raise LoadGeneratorFailed(f"{command} failed in a load generator:\n" + "\n".join(errors))
        return list(answers)

    async def all(self, command: str, **shared: Any) -> list[Any]:
        return await self.each(command, [shared] * self.size)

    async def split(self, command: str, per_player: dict[str, Sequence[Any]], **shared: Any) -> list[Any]:
        """`per_player`: argument name → one value per player, in the players' order; sliced per process."""
        cut = {name: slices(values, self.size) for name, values in per_player.items()}
        return await self.each(command, [{**shared, **{n: v[i] for n, v in cut.items()}} for i in range(self.size)])

    def halt(self) -> None:
        """A running `play` stops its bots and answers (the time is up, or the tournaments stalled)."""
        for pipe in self._pipes:
            with contextlib.suppress(OSError, ValueError):
                pipe.send((0, "halt", {}))

    async def meter(self) -> Meter:
        merged = Meter()
        for found in await self.all("report"):
            merged.merge(found)
        return merged

    def stop(self, grace: float = 10.0) -> None:
        """Ask each process to stop, then terminate those that do not within `grace` seconds. Safe to call twice."""
        for pipe in self._pipes:
            with contextlib.suppress(OSError, ValueError):  # already gone
                pipe.send((0, "stop", {}))
        for process in self._processes:
            process.join(grace)
            if process.is_alive():
                process.terminate()
                process.join(grace)
        for reader in self._readers:
            reader.cancel()
        for pipe in self._pipes:
            pipe.close()
        self._processes, self._pipes, self._answers, self._readers = [], [], [], []


async def _read_answers(pipe: Connection, answers: asyncio.Queue[tuple[int, Any]]) -> None:
    """Every answer of one process, as it comes; when the process is gone, an error for whoever still waits."""
    while True:
        try:
            number, answer = await asyncio.to_thread(pipe.recv)
        except (EOFError, OSError):
            await answers.put((-1, {"error": "the load-generator process exited"}))
            return
        await answers.put((number, answer))


async def _answer_to(number: int, answers: asyncio.Queue[tuple[int, Any]]) -> Any:
    while True:
        got, answer = await answers.get()
        if got in (number, -1):
            return answer
