// Connect Four's web module: the m,n,k kernel's board with gravity, Red and Yellow discs.
import { registerMnk } from "./mnk.js";

registerMnk({ id: "connect4", title: "Connect Four", blurb: "Drop discs; four in a row wins.", order: 20, names: ["Red", "Yellow"], gravity: true });
