// Random Connect Four games in boardgame.io, the way a boardgame.io project runs them headless.
//
// Usage: node boardgameio.cjs GAMES [SEED]   (run from a folder whose node_modules holds
// boardgame.io; bench/peers/run.sh does that). Prints one JSON line per path:
//
// - `client`:  the headless `Client` from `boardgame.io/client` (no multiplayer, no debug
//              panel), moves sent with `client.moves.dropDisc(column)`;
// - `reducer`: the game reducer from `boardgame.io/internal` (`CreateGameReducer` +
//              `InitializeGame`), fed `MAKE_MOVE` actions directly: the rules without the client.
//
// Each game: uniformly random open columns until a line of four or a full board. The generator
// is mulberry32, seeded per run, so a run is repeatable; the workload (not the exact games) is
// the same as Turnstile's, as the average moves per game shows.
'use strict';

process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const { Client } = require('boardgame.io/client');
const { CreateGameReducer, InitializeGame } = require('boardgame.io/internal');
const { INVALID_MOVE } = require('boardgame.io/core');

const WIDTH = 7;
const HEIGHT = 6;

/** Cells row by row from the top-left; `null` open, '0' or '1' a player's disc. */
function landing(cells, column) {
  for (let row = HEIGHT - 1; row >= 0; row--) {
    if (cells[row * WIDTH + column] === null) return row * WIDTH + column;
  }
  return -1;
}

function openColumns(cells) {
  const open = [];
  for (let column = 0; column < WIDTH; column++) {
    if (cells[column] === null) open.push(column);
  }
  return open;
}

const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];

/** Whether the disc at `index` completes four in a row. */
function isLine(cells, index) {
  const player = cells[index];
  const column = index % WIDTH;
  const row = Math.floor(index / WIDTH);
  for (const [dx, dy] of DIRECTIONS) {
    let count = 1;
    for (const sign of [1, -1]) {
      let c = column + sign * dx;
      let r = row + sign * dy;
      while (c >= 0 && c < WIDTH && r >= 0 && r < HEIGHT && cells[r * WIDTH + c] === player) {
        count++;
        c += sign * dx;
        r += sign * dy;
      }
    }
    if (count >= 4) return true;
  }
  return false;
}

/** Connect Four as a boardgame.io game, written as its tutorial writes Tic-Tac-Toe. */
const ConnectFour = {
  name: 'connect-four',
  setup: () => ({ cells: Array(WIDTH * HEIGHT).fill(null), last: -1 }),
  turn: { minMoves: 1, maxMoves: 1 },
  moves: {
    dropDisc: ({ G, playerID }, column) => {
      const index = landing(G.cells, column);
      if (index < 0) return INVALID_MOVE;
      G.cells[index] = playerID;
      G.last = index;
    },
  },
  endIf: ({ G, ctx }) => {
    if (G.last >= 0 && isLine(G.cells, G.last)) return { winner: G.cells[G.last] };
    if (G.cells.every((c) => c !== null)) return { draw: true };
    return undefined;
  },
  ai: { enumerate: (G) => openColumns(G.cells).map((column) => ({ move: 'dropDisc', args: [column] })) },
};

function mulberry32(seed) {
  let a = seed >>> 0;
  return function next() {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function pick(random, list) {
  return list[Math.floor(random() * list.length)];
}

function viaClient(games, seed) {
  const random = mulberry32(seed);
  let moves = 0;
  const start = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    const client = Client({ game: ConnectFour, numPlayers: 2, debug: false });
    client.start();
    let state = client.getState();
    while (state.ctx.gameover === undefined) {
      client.moves.dropDisc(pick(random, openColumns(state.G.cells)));
      moves++;
      state = client.getState();
    }
    client.stop();
  }
  return { moves, nanos: process.hrtime.bigint() - start };
}

function viaReducer(games, seed) {
  const random = mulberry32(seed);
  const reducer = CreateGameReducer({ game: ConnectFour });
  let moves = 0;
  const start = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    let state = InitializeGame({ game: ConnectFour, numPlayers: 2 });
    while (state.ctx.gameover === undefined) {
      const column = pick(random, openColumns(state.G.cells));
      state = reducer(state, {
        type: 'MAKE_MOVE',
        payload: { type: 'dropDisc', args: [column], playerID: state.ctx.currentPlayer },
      });
      moves++;
    }
  }
  return { moves, nanos: process.hrtime.bigint() - start };
}

function report(path, games, { moves, nanos }) {
  const seconds = Number(nanos) / 1e9;
  console.log(JSON.stringify({
    peer: 'boardgame.io',
    path,
    games,
    moves,
    seconds: Number(seconds.toFixed(6)),
    gamesPerSecond: Math.round(games / seconds),
    movesPerSecond: Math.round(moves / seconds),
  }));
}

const games = Number(process.argv[2] || 2000);
const seed = Number(process.argv[3] || 1);
// A short warm-up so the JIT has compiled the hot paths before the clock starts.
viaClient(Math.max(1, Math.floor(games / 10)), seed + 1);
report('client', games, viaClient(games, seed));
viaReducer(Math.max(1, Math.floor(games / 10)), seed + 1);
report('reducer', games, viaReducer(games, seed));
