package io.signalman.rulelang;

/**
 * One problem the rule reader found, at a 1-based line and column of the file it read.
 * The engine turns it into a {@code BundleError} with the file's path.
 */
public record Finding(int line, int column, String message) {
}
