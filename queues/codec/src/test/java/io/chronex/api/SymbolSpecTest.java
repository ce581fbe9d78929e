package io.chronex.api;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Prices shown in a symbol's units: exact for power-of-ten scales, ticks otherwise (in codec's tests: api has no test set-up). */
class SymbolSpecTest {
    private static SymbolSpec scale(final long priceScale) {
        return new SymbolSpec(1, "X", priceScale, 1, 1, 0, 0);
    }

    @Test
    void powersOfTenGiveDecimalsAndOthersTicks() {
        assertEquals(0, scale(1).priceDecimals());
        assertEquals(2, scale(100).priceDecimals());
        assertEquals(8, scale(100_000_000).priceDecimals());
        assertEquals(-1, scale(25).priceDecimals());
        assertEquals(-1, scale(110).priceDecimals());
        assertEquals("100.02", scale(100).formatPrice(10_002));
        assertEquals("-0.05", scale(100).formatPrice(-5));
        assertEquals("7", scale(1).formatPrice(7));
        assertEquals("10002", scale(25).formatPrice(10_002));
    }
}
