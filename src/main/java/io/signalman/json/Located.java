package io.signalman.json;

/** A value read from a reference-data file with the line and column it starts at. */
public record Located<T>(T value, int line, int column) {
}
