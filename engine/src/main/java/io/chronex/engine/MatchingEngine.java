package io.chronex.engine;

import io.chronex.engine.api.Command;
import io.chronex.engine.api.EngineConfig;
import io.chronex.engine.api.Result;
import io.chronex.engine.api.Side;

/** STUB while the real engine is written: the public API only. */
public final class MatchingEngine {
    /** Returned by bestBid/bestAsk when that side is empty. */
    public static final long NO_PRICE = 0;

    public MatchingEngine(final EngineConfig config) {
        throw new UnsupportedOperationException("not yet");
    }

    /** Applies one command; fills result (reset first) with everything it did. */
    public void apply(final Command command, final Result result) {
        throw new UnsupportedOperationException("not yet");
    }

    public long bestBid(final int symbol) { throw new UnsupportedOperationException(); }
    public long bestAsk(final int symbol) { throw new UnsupportedOperationException(); }
    /** Number of price levels on one side of a symbol's book. */
    public int levelCount(final int symbol, final Side side) { throw new UnsupportedOperationException(); }
    /** Price of the level at depth (0 = best). */
    public long levelPrice(final int symbol, final Side side, final int depth) { throw new UnsupportedOperationException(); }
    public long levelQuantity(final int symbol, final Side side, final int depth) { throw new UnsupportedOperationException(); }
    public int levelOrderCount(final int symbol, final Side side, final int depth) { throw new UnsupportedOperationException(); }
    /** Commands applied since the engine was created (carried by snapshots). */
    public long commandCount() { throw new UnsupportedOperationException(); }
    /** The whole state as bytes: restore(snapshot()) behaves exactly like this engine. */
    public byte[] snapshot() { throw new UnsupportedOperationException(); }
    public static MatchingEngine restore(final byte[] snapshot) { throw new UnsupportedOperationException(); }
    /** A 64-bit hash of the whole state (the snapshot's bytes). */
    public long stateHash() { throw new UnsupportedOperationException(); }
}
