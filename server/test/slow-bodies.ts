import net from 'node:net';

/**
 * Requests that announce a large body and send only its first bytes, opened one after another
 * until the server refuses one at once with 429: the ones before it hold what the server lets
 * such bodies hold. `close()` gives them up.
 */
export async function slowBodiesUntilRefused(
  base: string,
  request: { path: string; headers?: Record<string, string>; length: number },
  most = 20,
): Promise<{ held: number; refused: boolean; close: () => void }> {
  const { hostname, port } = new URL(base);
  const sockets: net.Socket[] = [];
  const close = () => {
    for (const socket of sockets) socket.destroy();
  };
  let refused = false;
  while (!refused && sockets.length < most) {
    const socket = net.connect(Number(port), hostname);
    sockets.push(socket);
    await new Promise((resolve) => socket.once('connect', resolve));
    const answered = new Promise<boolean>((resolve) => {
      socket.once('data', (data) => resolve(data.toString().startsWith('HTTP/1.1 429')));
      setTimeout(() => resolve(false), 500);
    });
    const head = Object.entries({
      host: hostname,
      'content-type': 'application/json',
      ...request.headers,
      'content-length': String(request.length),
    })
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`POST ${request.path} HTTP/1.1\r\n${head}\r\n{"a":`);
    refused = await answered;
  }
  return { held: sockets.length - (refused ? 1 : 0), refused, close };
}
