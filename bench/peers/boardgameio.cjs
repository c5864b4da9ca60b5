// Random Connect Four or Tic-Tac-Toe games in boardgame.io, the way a boardgame.io project runs
// them headless.
//
// Usage: node boardgameio.cjs GAMES [SEED] [connect4|tictactoe]   (run from a folder whose
// node_modules holds boardgame.io; bench/peers/run.sh does that). Prints one JSON line per
// path, each naming its `game`:
//
// - `client`:  the headless `Client` from `boardgame.io/client` (no multiplayer, no debug
//              panel), moves sent with `client.moves.dropDisc(column)` (`clickCell(id)`);
// - `reducer`: the game reducer from `boardgame.io/internal` (`CreateGameReducer` +
//              `InitializeGame`), fed `MAKE_MOVE` actions directly: the rules without the client.
//
// Each game: uniformly random open columns (cells) until a line or a full board. The generator
// is mulberry32, seeded per run, so a run is repeatable; the workload (not the exact games) is
// the same as Turnstile's, as the average moves per game shows.
'use strict';

process.env.NODE_ENV = process.env.NODE_ENV || 'production';

const { Client } = require('boardgame.io/client');
const { CreateGameReducer, InitializeGame } = require('boardgame.io/internal');
const { INVALID_MOVE } = require('boardgame.io/core');

/**
 * An m,n,k game as a boardgame.io game, written as its tutorial writes Tic-Tac-Toe: Connect
 * Four (7 x 6, four in a row, discs dropped into a column: `dropDisc(column)`) or Tic-Tac-Toe
 * (3 x 3, three in a row, a mark anywhere open: `clickCell(id)`, the tutorial's own move).
 * Cells row by row from the top-left; `null` open, '0' or '1' a player's piece.
 */
function gridGame({ name, width, height, line, gravity }) {
  /** Where a move puts its piece, or -1. */
  const target = (cells, arg) => {
    if (!gravity) return cells[arg] === null ? arg : -1;
    for (let row = height - 1; row >= 0; row--) {
      if (cells[row * width + arg] === null) return row * width + arg;
    }
    return -1;
  };
  /** The moves open now: the open columns, or the open cells. */
  const open = (cells) => {
    const list = [];
    if (gravity) {
      for (let column = 0; column < width; column++) if (cells[column] === null) list.push(column);
    } else {
      for (let id = 0; id < cells.length; id++) if (cells[id] === null) list.push(id);
    }
    return list;
  };
  const DIRECTIONS = [[1, 0], [0, 1], [1, 1], [1, -1]];
  /** Whether the piece at `index` completes a line. */
  const isLine = (cells, index) => {
    const player = cells[index];
    const column = index % width;
    const row = Math.floor(index / width);
    for (const [dx, dy] of DIRECTIONS) {
      let count = 1;
      for (const sign of [1, -1]) {
        let c = column + sign * dx;
        let r = row + sign * dy;
        while (c >= 0 && c < width && r >= 0 && r < height && cells[r * width + c] === player) {
          count++;
          c += sign * dx;
          r += sign * dy;
        }
      }
      if (count >= line) return true;
    }
    return false;
  };
  const move = gravity ? 'dropDisc' : 'clickCell';
  return {
    move,
    open,
    game: {
      name,
      setup: () => ({ cells: Array(width * height).fill(null), last: -1 }),
      turn: { minMoves: 1, maxMoves: 1 },
      moves: {
        [move]: ({ G, playerID }, arg) => {
          const index = target(G.cells, arg);
          if (index < 0) return INVALID_MOVE;
          G.cells[index] = playerID;
          G.last = index;
        },
      },
      endIf: ({ G }) => {
        if (G.last >= 0 && isLine(G.cells, G.last)) return { winner: G.cells[G.last] };
        if (G.cells.every((c) => c !== null)) return { draw: true };
        return undefined;
      },
      ai: { enumerate: (G) => open(G.cells).map((arg) => ({ move, args: [arg] })) },
    },
  };
}

const GAMES = {
  connect4: gridGame({ name: 'connect-four', width: 7, height: 6, line: 4, gravity: true }),
  tictactoe: gridGame({ name: 'tic-tac-toe', width: 3, height: 3, line: 3, gravity: false }),
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

function viaClient({ game, move, open }, games, seed) {
  const random = mulberry32(seed);
  let moves = 0;
  const start = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    const client = Client({ game, numPlayers: 2, debug: false });
    client.start();
    let state = client.getState();
    while (state.ctx.gameover === undefined) {
      client.moves[move](pick(random, open(state.G.cells)));
      moves++;
      state = client.getState();
    }
    client.stop();
  }
  return { moves, nanos: process.hrtime.bigint() - start };
}

function viaReducer({ game, move, open }, games, seed) {
  const random = mulberry32(seed);
  const reducer = CreateGameReducer({ game });
  let moves = 0;
  const start = process.hrtime.bigint();
  for (let g = 0; g < games; g++) {
    let state = InitializeGame({ game, numPlayers: 2 });
    while (state.ctx.gameover === undefined) {
      const arg = pick(random, open(state.G.cells));
      state = reducer(state, {
        type: 'MAKE_MOVE',
        payload: { type: move, args: [arg], playerID: state.ctx.currentPlayer },
      });
      moves++;
    }
  }
  return { moves, nanos: process.hrtime.bigint() - start };
}

function report(id, path, games, { moves, nanos }) {
  const seconds = Number(nanos) / 1e9;
  console.log(JSON.stringify({
    peer: 'boardgame.io',
    path,
    game: id,
    games,
    moves,
    seconds: Number(seconds.toFixed(6)),
    gamesPerSecond: Math.round(games / seconds),
    movesPerSecond: Math.round(moves / seconds),
  }));
}

const games = Number(process.argv[2] || 2000);
const seed = Number(process.argv[3] || 1);
const id = process.argv[4] || 'connect4';
const variant = GAMES[id];
if (!variant) throw new Error(`unknown game ${id}: choose one of ${Object.keys(GAMES).join(', ')}`);
// A short warm-up so the JIT has compiled the hot paths before the clock starts.
viaClient(variant, Math.max(1, Math.floor(games / 10)), seed + 1);
report(id, 'client', games, viaClient(variant, games, seed));
viaReducer(variant, Math.max(1, Math.floor(games / 10)), seed + 1);
report(id, 'reducer', games, viaReducer(variant, games, seed));
