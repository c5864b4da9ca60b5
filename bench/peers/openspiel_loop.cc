// Random Connect Four or Tic-Tac-Toe games in OpenSpiel's own C++ loop: no Python between
// moves.
//
// Built by bench/peers/run.sh against the headers shipped in the `open-spiel` wheel and linked
// to the wheel's `pyspiel.so` (which holds the whole C++ library), so nothing is compiled from
// OpenSpiel's sources. Usage: openspiel_loop GAMES [SEED] [connect_four|tic_tac_toe]. Prints
// one JSON line, path `cpp`, naming the `game` by Turnstile's id (connect4, tictactoe):
// `LoadGame(name)`, then per game `NewInitialState()` and
// `LegalActions()` / `ApplyAction()` until `IsTerminal()`, moves drawn uniformly from a
// `std::mt19937` seeded per run.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "open_spiel/spiel.h"

int main(int argc, char** argv) {
  const long games = argc > 1 ? std::atol(argv[1]) : 200000;
  const unsigned seed = argc > 2 ? static_cast<unsigned>(std::atol(argv[2])) : 1;
  const std::string name = argc > 3 ? argv[3] : "connect_four";
  const char* id = name == "tic_tac_toe" ? "tictactoe" : "connect4";
  std::shared_ptr<const open_spiel::Game> game = open_spiel::LoadGame(name);
  auto play = [&](long count, unsigned s, long* moves) {
    std::mt19937 rng(s);
    for (long g = 0; g < count; ++g) {
      std::unique_ptr<open_spiel::State> state = game->NewInitialState();
      while (!state->IsTerminal()) {
        std::vector<open_spiel::Action> legal = state->LegalActions();
        std::uniform_int_distribution<size_t> pick(0, legal.size() - 1);
        state->ApplyAction(legal[pick(rng)]);
        ++*moves;
      }
    }
  };
  long warm = 0;
  play(games / 10 + 1, seed + 1, &warm);
  long moves = 0;
  auto start = std::chrono::steady_clock::now();
  play(games, seed, &moves);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf(
      "{\"peer\": \"OpenSpiel\", \"path\": \"cpp\", \"game\": \"%s\", \"games\": %ld, \"moves\": %ld, "
      "\"seconds\": %.6f, \"gamesPerSecond\": %.0f, \"movesPerSecond\": %.0f}\n",
      id, games, moves, seconds, games / seconds, moves / seconds);
  return 0;
}
