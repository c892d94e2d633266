// Counter: the one-move game of bench/move_cost.py on boardgame.io (bench/counter_game.py is the
// same game on this server). One player adds one to a public counter, again and again; `client:
// false` makes the client wait for the server's update instead of applying the move itself.
const Counter = {
  name: 'counter',
  setup: () => ({ count: 0 }),
  moves: {
    add: { move: ({ G }) => { G.count += 1; }, client: false },
  },
};

module.exports = { Counter };
