package io.chronex.monitor;

import io.chronex.api.LevelChange;
import io.chronex.api.Side;

import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;

/**
 * Every symbol's price levels, rebuilt from the events' level changes alone: each change carries a
 * level's total quantity and order count after the command, so it replaces the level (quantity 0
 * removes it). Symbols in id order, prices in price order.
 */
public final class Books {
    /** One price level: total resting quantity and number of orders. */
    public record Level(long quantity, int orders) {
    }

    /** One symbol's two sides. */
    public static final class Book {
        private final NavigableMap<Long, Level> bids = new TreeMap<>();
        private final NavigableMap<Long, Level> asks = new TreeMap<>();

        /** The side's levels, best first. */
        public NavigableMap<Long, Level> levels(final Side side) {
            return side == Side.BUY ? bids.descendingMap() : asks;
        }

        /** The best price's entry of a side, or null when it is empty. */
        public Map.Entry<Long, Level> best(final Side side) {
            return side == Side.BUY ? bids.lastEntry() : asks.firstEntry();
        }

        void apply(final LevelChange change) {
            final NavigableMap<Long, Level> side = change.side == Side.BUY ? bids : asks;
            if (change.quantity == 0) {
                side.remove(change.price);
            } else {
                side.put(change.price, new Level(change.quantity, change.orderCount));
            }
        }
    }

    private final NavigableMap<Integer, Book> bySymbol = new TreeMap<>();

    public void apply(final LevelChange change) {
        bySymbol.computeIfAbsent(change.symbol, s -> new Book()).apply(change);
    }

    /** Symbols that ever had a level, in id order. */
    public NavigableMap<Integer, Book> bySymbol() {
        return bySymbol;
    }

    /** The symbol's book, or null when no level of it was ever seen. */
    public Book book(final int symbol) {
        return bySymbol.get(symbol);
    }
}
