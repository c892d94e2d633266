// The load client of the boardgame.io peer: CLIENTS matches, each created and joined through the
// lobby API, each played by one boardgame.io client over socket.io that makes a move, waits for
// the server's update carrying it, and makes the next, for SECONDS. Prints one JSON line.
// Usage: node client.js SERVER_URL CLIENTS SECONDS
const { Client } = require('boardgame.io/client');
const { SocketIO } = require('boardgame.io/multiplayer');
const { Counter } = require('./counter');

const [url, clients, seconds] = [process.argv[2], Number(process.argv[3]), Number(process.argv[4])];

async function post(path, body) {
  const r = await fetch(`${url}${path}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  if (!r.ok) throw new Error(`${path}: ${r.status} ${await r.text()}`);
  return r.json();
}

async function player(stopAt, latencies) {
  const { matchID } = await post('/games/counter/create', { numPlayers: 1 });
  const { playerCredentials } = await post(`/games/counter/${matchID}/join`, { playerID: '0', playerName: 'bench' });
  const client = Client({ game: Counter, numPlayers: 1, matchID, playerID: '0', credentials: playerCredentials,
                          multiplayer: SocketIO({ server: url }), debug: false });
  let waiting = null;
  client.subscribe((state) => {
    if (state && waiting && state.G.count >= waiting.count) { const w = waiting; waiting = null; w.resolve(); }
  });
  client.start();
  await new Promise((resolve) => { waiting = { count: 0, resolve }; });  // the first sync
  let moves = 0;
  let count = client.getState().G.count;
  while (Date.now() < stopAt) {
    const t0 = process.hrtime.bigint();
    const updated = new Promise((resolve) => { waiting = { count: count + 1, resolve }; });
    client.moves.add();
    await updated;
    latencies.push(Number(process.hrtime.bigint() - t0) / 1e6);
    count += 1;
    moves += 1;
  }
  client.stop();
  return { moves, count: client.getState() ? client.getState().G.count : null };
}

async function main() {
  const latencies = [];
  const t0 = Date.now();
  const stopAt = t0 + seconds * 1000;
  const results = await Promise.all(Array.from({ length: clients }, () => player(stopAt, latencies)));
  const elapsed = (Date.now() - t0) / 1000;
  const moves = results.reduce((a, r) => a + r.moves, 0);
  latencies.sort((a, b) => a - b);
  const pct = (p) => latencies.length ? latencies[Math.min(latencies.length - 1, Math.round(p / 100 * (latencies.length - 1)))] : null;
  console.log(JSON.stringify({ clients, moves, seconds: elapsed, rps: Math.round(10 * moves / elapsed) / 10,
                               p50_ms: pct(50), p99_ms: pct(99) }));
  process.exit(0);
}

main().catch((err) => { console.error(err); process.exit(1); });
