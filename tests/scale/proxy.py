"""A TCP proxy in front of a real PostgreSQL server that a test can cut and restore: the
network between the bot and its database failing, without touching either."""

from __future__ import annotations

import asyncio
import contextlib
import socket


class Proxy:
    """Forwards ``127.0.0.1:<port>`` to ``target``. :meth:`cut` drops every connection and
    refuses new ones (as a dead server or network would); :meth:`restore` listens again."""

    def __init__(self, target_host: str, target_port: int) -> None:
        self.target = (target_host, target_port)
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = int(s.getsockname()[1])
        self._server: asyncio.Server | None = None
        self._pipes: set[asyncio.StreamWriter] = set()
        self.connections = 0  # accepted so far

    async def start(self) -> Proxy:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", self.port)
        return self

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self._pipes |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            try:
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            except (OSError, asyncio.CancelledError):
                pass
            finally:
                dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self._pipes -= {writer, up_writer}

    async def cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._pipes):
            with contextlib.suppress(Exception):
                writer.transport.abort()
        self._pipes.clear()

    async def restore(self) -> None:
        if self._server is None:
            await self.start()

    async def close(self) -> None:
        await self.cut()


def url_through(url: str, proxy: Proxy) -> str:
    """``postgresql://user@host:port/db`` with the proxy's address instead."""
    head, _, rest = url.partition("@")
    _, _, path = rest.partition("/")
    return f"{head}@127.0.0.1:{proxy.port}/{path}"
