package io.chronex.gateway.core;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Result;
import io.chronex.api.Side;
import io.chronex.engine.MatchingEngine;
import io.chronex.gateway.config.GatewayConfig;
import io.chronex.queues.book.Books;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The books and trading status from the engine's results alone, with no protocol to publish them, and what each event touched. */
class MarketBooksTest {
    private final List<String> log = new ArrayList<>();

    @Test
    void theBooksFollowTheEngineAndEachEventSaysWhatItTouched() throws Exception {
        final MatchingEngine engine = FundedEngine.create();
        final Command c = new Command();
        final Result r = new Result();
        final MarketBooks<MarketBooks.Symbol> books = MarketBooks.plain(List.of(new GatewayConfig.Symbol(1, "ACME", 2, 1, 1),
            new GatewayConfig.Symbol(2, "GLOBEX", 2, 1, 1)), log::add);

        engine.apply(c.limit(1, 1, 11, Side.BUY, 9_950, 10), r);
        assertTrue(books.apply(r));
        assertEquals(1, books.touchedCount());
        assertEquals("ACME", books.touched(0).config.name());
        assertEquals(1, books.touched(0).touchedSides, "bids only");
        assertEquals(Books.ADDED, books.applied(0));
        assertFalse(books.touched(0).traded);
        final Books.Levels bids = books.symbol(1).sides[0];
        assertEquals(1, bids.size());
        assertEquals(9_950, bids.price(0));
        assertEquals(10, bids.quantity(0));

        engine.apply(c.limit(2, 1, 21, Side.SELL, 9_950, 4), r);
        assertFalse(r.isRejected(), r.rejectReason::toString);
        assertTrue(books.apply(r));
        assertTrue(books.touched(0).traded);
        assertEquals(6, bids.quantity(0), "4 of 10 traded");

        engine.apply(c.symbolCommand(CommandType.HALT, 2), r);
        assertTrue(books.apply(r));
        assertEquals("GLOBEX", books.touched(0).config.name());
        assertTrue(books.touched(0).statusChanged);
        assertTrue(books.halted(2));
        assertFalse(books.halted(1));

        // A checkpoint's copy is the same books and statuses.
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        books.writeTo(new DataOutputStream(bytes));
        final MarketBooks<MarketBooks.Symbol> copy = MarketBooks.plain(List.of(new GatewayConfig.Symbol(1, "ACME", 2, 1, 1),
            new GatewayConfig.Symbol(2, "GLOBEX", 2, 1, 1)), log::add);
        copy.readFrom(ByteBuffer.wrap(bytes.toByteArray()));
        assertTrue(copy.halted(2));
        assertEquals(6, copy.symbol(1).sides[0].quantity(0));
        assertEquals(0, copy.unappliedEvents());
        assertEquals(List.of(), log, "nothing doubtful to say");

        books.undecodable(0x1234);
        books.undecodable(0x1235);
        assertEquals(2, books.unappliedEvents());
        assertEquals(1, log.size(), "said once: " + log);
    }
}
