package io.chronex.bench;

import io.chronex.runtime.Args;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** bin/bench-engine's options and output format, on a tiny stream (nothing here is timed or asserts on time). */
class EngineBenchTest {
    @TempDir
    Path dir;

    @Test
    void printsPercentilesAndAResultLineWithTheStreamsTotals() throws IOException {
        final Path file = dir.resolve("tiny.csv");
        Files.writeString(file, "seq,phase,cmd,uid,orderId,side,type,price,reservePrice,size\n"
            + "0,F,PLACE,1,1,ASK,GTC,100,,5\n"
            + "1,F,PLACE,2,2,ASK,GTC,101,,5\n"
            + "2,B,PLACE,3,3,BID,IOC,101,,7\n"
            + "3,B,PLACE,3,4,BID,GTC,99,,1\n");
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        final EngineBench.Totals totals = EngineBench.run(
            EngineBench.parse(new String[]{"--warmup", "1", "--passes", "2", "--latency-passes", "1", "--symbol", "9", file.toString()}),
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
        final String out = bytes.toString(StandardCharsets.UTF_8);
        final String[] lines = out.trim().split("\n");
        final String last = lines[lines.length - 1];
        assertTrue(last.matches("RESULT commands=4 trades=2 volume=7 notional=702 best_bid=99 best_ask=101"
            + " mcmds_per_s=[0-9]+\\.[0-9]{2}"), last);
        assertTrue(out.contains("p50 "), out);
        assertTrue(out.contains("p99.99 "), out);
        assertEquals(2, totals.trades());
    }

    @Test
    void badCommandLinesAreRejectedWithAReason() {
        assertThrows(Args.HelpRequested.class, () -> EngineBench.parse(new String[]{"--help"}));
        assertEquals(EngineBench.DEFAULT_FILE, EngineBench.parse(new String[0]).file(), "no FILE: the repository's ec-1M");
        assertTrue(assertThrows(Args.UsageException.class,
            () -> EngineBench.parse(new String[]{"--passes", "0", "x"})).getMessage().contains("at least 1"));
        assertTrue(assertThrows(Args.UsageException.class,
            () -> EngineBench.parse(new String[]{"--passes", "many", "x"})).getMessage().contains("needs a whole number"));
        assertTrue(assertThrows(Args.UsageException.class,
            () -> EngineBench.parse(new String[]{"--frobnicate"})).getMessage().contains("unknown option"));
        assertTrue(assertThrows(Args.UsageException.class,
            () -> EngineBench.parse(new String[]{dir.resolve("absent.csv").toString()})).getMessage().contains("cannot read"));
    }
}
