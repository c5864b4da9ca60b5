// Tic-Tac-Toe's web module: the m,n,k kernel's board of squares, X against O.
import { registerMnk } from "./mnk.js";

registerMnk({ id: "tictactoe", title: "Tic-Tac-Toe", blurb: "Three in a row, on a clock if you like.", order: 30, names: ["X", "O"], pieces: ["X", "O"] });
