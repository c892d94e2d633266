// boardgame.io's own server (Koa + socket.io) with the counter game and its default storage,
// InMemory: nothing is persisted. Usage: node server.js PORT; prints "ready PORT" when listening.
const { Server, Origins } = require('boardgame.io/server');
const { Counter } = require('./counter');

const port = Number(process.argv[2]);
const server = Server({ games: [Counter], origins: [Origins.LOCALHOST] });
server.run({ port, callback: () => console.log(`ready ${port}`) });
