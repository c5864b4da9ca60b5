//! Sokoban (being written).
