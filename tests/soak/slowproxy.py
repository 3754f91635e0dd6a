#!/usr/bin/env python3
"""slowproxy.py DELAY PORT:UPSTREAM...: a slow server for the soak test.

A TCP proxy on 127.0.0.1: each PORT forwards to 127.0.0.1:UPSTREAM, and
every chunk the server sends is held DELAY seconds before the client gets
it (in order, without holding up the chunks behind it), so each HTTP
response or IMAP reply arrives DELAY seconds late.  What the client sends
passes at once.  Runs until killed.
"""
import asyncio
import sys


async def client_to_server(reader, writer):
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.close()


async def server_to_client(reader, writer, delay):
    loop = asyncio.get_running_loop()
    queue = asyncio.Queue()

    async def read():
        try:
            while data := await reader.read(65536):
                await queue.put((loop.time() + delay, data))
        except (ConnectionError, OSError):
            pass
        await queue.put((loop.time() + delay, b""))

    task = asyncio.create_task(read())
    try:
        while True:
            due, data = await queue.get()
            await asyncio.sleep(max(0.0, due - loop.time()))
            if not data:
                break
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        task.cancel()
        writer.close()


def handler(upstream, delay):
    async def handle(creader, cwriter):
        try:
            sreader, swriter = await asyncio.open_connection("127.0.0.1",
                                                             upstream)
        except OSError:
            cwriter.close()
            return
        await asyncio.gather(client_to_server(creader, swriter),
                             server_to_client(sreader, cwriter, delay))
    return handle


async def main():
    delay = float(sys.argv[1])
    servers = []
    for pair in sys.argv[2:]:
        port, upstream = (int(x) for x in pair.split(":"))
        servers.append(await asyncio.start_server(
            handler(upstream, delay), "127.0.0.1", port))
    await asyncio.gather(*(s.serve_forever() for s in servers))


if __name__ == "__main__":
    asyncio.run(main())
