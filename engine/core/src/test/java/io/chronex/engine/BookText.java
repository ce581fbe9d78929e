package io.chronex.engine;

import io.chronex.api.Side;

/** Renders one side of an engine's book as "price:quantity:orders" levels, best first, for assertions. */
public final class BookText {
    private BookText() {
    }

    public static String depth(final MatchingEngine engine, final int symbol, final Side side) {
        final StringBuilder sb = new StringBuilder();
        for (int d = 0; d < engine.levelCount(symbol, side); d++) {
            if (d > 0) {
                sb.append(' ');
            }
            sb.append(engine.levelPrice(symbol, side, d)).append(':').append(engine.levelQuantity(symbol, side, d))
                .append(':').append(engine.levelOrderCount(symbol, side, d));
        }
        return sb.toString();
    }
}
