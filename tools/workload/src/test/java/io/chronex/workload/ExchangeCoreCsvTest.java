package io.chronex.workload;

import io.chronex.api.Command;
import io.chronex.api.CommandType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.zip.GZIPOutputStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The exchange-core CSV loader maps rows to commands, reads gzip by content, and names file and line on bad input. */
class ExchangeCoreCsvTest {
    private static final String ROWS = ExchangeCoreCsv.HEADER + "\n"
        + "0,F,PLACE,7,1,BID,GTC,100,200,3\n"
        + "1,B,PLACE,8,2,ASK,FOK_BUDGET,500,,5\n"
        + "2,B,MOVE,7,1,BID,,101,,\n"
        + "3,B,REDUCE,7,1,BID,,,,2\n"
        + "4,B,CANCEL,7,1,BID,,,,\n";

    @TempDir
    Path dir;

    @Test
    void rowsBecomeCommands() throws IOException {
        final Path file = dir.resolve("plain.csv");
        Files.writeString(file, ROWS);
        final ExchangeCoreCsv csv = ExchangeCoreCsv.load(file, 5);
        assertEquals(5, csv.size());
        assertTrue(csv.isFillPhase(0));
        final Command c = new Command();
        csv.commandAt(0, c);
        assertEquals(CommandType.NEW_ORDER, c.type);
        assertEquals(7, c.account);
        assertEquals(1, c.clientOrderId);
        assertEquals(Side.BUY, c.side);
        assertEquals(5, c.symbol);
        assertEquals(100, c.price);
        assertEquals(3, c.quantity);
        csv.commandAt(1, c);
        assertEquals(TimeInForce.FOK_BUDGET, c.timeInForce);
        assertEquals(500, c.price);
        assertEquals(CommandType.MOVE, csv.commandAt(2, c).type);
        assertEquals(101, c.price);
        assertEquals(2, csv.commandAt(3, c).quantity);
        assertEquals(CommandType.CANCEL, csv.commandAt(4, c).type);
        assertEquals("REDUCE", csv.commandName(3));
    }

    @Test
    void describeGivesTheRowBackWithABidsReservePrice() throws IOException {
        final Path file = dir.resolve("plain.csv");
        Files.writeString(file, ROWS);
        final ExchangeCoreCsv csv = ExchangeCoreCsv.load(file, 5);
        final String[] lines = ROWS.split("\n");
        assertEquals(200, csv.commandAt(0, new Command()).reservePrice, "a bid carries its reserve price");
        for (int row = 0; row < csv.size(); row++) {
            assertEquals(lines[row + 1], csv.describe(row));
        }
    }

    @Test
    void gzipIsRecognisedByItsContentNotItsName() throws IOException {
        final Path file = dir.resolve("no-extension");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(file))) {
            out.write(ROWS.getBytes(StandardCharsets.US_ASCII));
        }
        assertEquals(5, ExchangeCoreCsv.load(file, 5).size());
    }

    @Test
    void badInputNamesTheFileAndLine() throws IOException {
        assertBad("seq,wrong,header\n", ":1:", "expected header");
        assertBad(ExchangeCoreCsv.HEADER + "\n0,B,PLACE,7,1,BID,GTC,100,,3\n1,B,PLACE,7,2,BID,GTC,100\n", ":3:", "expected 10 fields");
        assertBad(ExchangeCoreCsv.HEADER + "\n0,B,PLACE,7,x,BID,GTC,100,,3\n", ":2:", "For input string");
        assertBad(ExchangeCoreCsv.HEADER + "\n0,B,FROB,7,1,BID,GTC,100,,3\n", ":2:", "unknown command");
        assertBad(ExchangeCoreCsv.HEADER + "\n0,B,PLACE,7,1,UP,GTC,100,,3\n", ":2:", "unknown side");
        assertBad(ExchangeCoreCsv.HEADER + "\n0,B,PLACE,7,1,BID,GTD,100,,3\n", ":2:", "unknown order type");
        assertBad(ExchangeCoreCsv.HEADER + "\n5,B,PLACE,7,1,BID,GTC,100,,3\n", ":2:", "out of order");
        assertBad("", ":1:", "expected header");
    }

    @Test
    void truncatedGzipIsAnError() throws IOException {
        final Path whole = dir.resolve("whole.gz");
        try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(whole))) {
            out.write(ROWS.repeat(1).getBytes(StandardCharsets.US_ASCII));
        }
        final byte[] bytes = Files.readAllBytes(whole);
        final Path truncated = dir.resolve("truncated.gz");
        Files.write(truncated, java.util.Arrays.copyOf(bytes, bytes.length - 12));
        assertThrows(IOException.class, () -> ExchangeCoreCsv.load(truncated, 5));
    }

    private void assertBad(final String content, final String where, final String why) throws IOException {
        final Path file = dir.resolve("bad.csv");
        Files.writeString(file, content);
        final IOException e = assertThrows(IOException.class, () -> ExchangeCoreCsv.load(file, 5));
        assertTrue(e.getMessage().contains(file + where), e.getMessage());
        assertTrue(e.getMessage().contains(why), e.getMessage());
    }
}
