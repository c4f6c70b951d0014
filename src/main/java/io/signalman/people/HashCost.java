package io.signalman.people;

/**
 * The cost of hashing a token with Argon2id: memory in KiB, passes over it, lanes. A token is
 * 256 random bits, so no cost makes guessing one feasible; the cost is what makes a stolen
 * {@code users.jsonl} useless for checking guesses offline, should a token ever be weaker. Each
 * stored hash carries its own parameters, so hashes made at one cost verify under any other.
 *
 * @param memoryKiB  {@code --token-hash-memory-kib}, default {@value #DEFAULT_MEMORY_KIB} (64 MiB)
 * @param iterations {@code --token-hash-iterations}, default {@value #DEFAULT_ITERATIONS}
 * @param lanes      parallelism, 1: the server verifies on two threads at most, whatever the cost
 */
public record HashCost(int memoryKiB, int iterations, int lanes) {

    public static final int DEFAULT_MEMORY_KIB = 65536;
    public static final int DEFAULT_ITERATIONS = 3;
    /** No stored hash asks for more than this (a tampered file cannot make a check take a gigabyte). */
    static final int MAX_MEMORY_KIB = 1 << 20;
    static final int MAX_ITERATIONS = 64;

    public HashCost {
        if (lanes < 1 || lanes > 16) {
            throw new IllegalArgumentException("Argon2 lanes must be 1 to 16, not " + lanes);
        }
        if (memoryKiB < 8 * lanes || memoryKiB > MAX_MEMORY_KIB) {
            throw new IllegalArgumentException("--token-hash-memory-kib must be " + 8 * lanes + " to " + MAX_MEMORY_KIB
                    + ", not " + memoryKiB);
        }
        if (iterations < 1 || iterations > MAX_ITERATIONS) {
            throw new IllegalArgumentException("--token-hash-iterations must be 1 to " + MAX_ITERATIONS + ", not " + iterations);
        }
    }

    /** The production cost: 64 MiB, 3 passes, 1 lane (above OWASP's minimum of 19 MiB and 2 passes). */
    public static HashCost defaults() {
        return new HashCost(DEFAULT_MEMORY_KIB, DEFAULT_ITERATIONS, 1);
    }

    @Override
    public String toString() {
        return "token-hash=argon2id(m=" + memoryKiB + ",t=" + iterations + ",p=" + lanes + ")";
    }
}
