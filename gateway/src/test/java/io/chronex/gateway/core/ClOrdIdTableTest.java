package io.chronex.gateway.core;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The ClOrdID rule and hash, and the memory-mapped id-to-text table: claims, releases, growth, reopening, collisions. */
class ClOrdIdTableTest {
    private final byte[] out = new byte[ClientOrderIds.MAX_LENGTH];

    @TempDir
    Path tmp;

    private static UnsafeBuffer ascii(final String text) {
        return new UnsafeBuffer(text.getBytes(StandardCharsets.US_ASCII));
    }

    private static ClOrdIdTable.Claim claim(final ClOrdIdTable table, final long account, final String text) {
        final UnsafeBuffer b = ascii(text);
        return table.claim(account, ClientOrderIds.hash(text), b, 0, b.capacity());
    }

    private String text(final ClOrdIdTable table, final long account, final long id) {
        return new String(out, 0, table.text(account, id, out), StandardCharsets.US_ASCII);
    }

    @Test
    void theRuleIsOneToSixtyFourPrintableCharactersWithoutSpaces() {
        final String longest = "x".repeat(64);
        for (final String ok : new String[] {"1", "Run42-A1", UUID.randomUUID().toString(), "20261123-000017", longest, "!~"}) {
            assertTrue(ClientOrderIds.valid(ascii(ok), 0, ok.length()), ok);
        }
        for (final String bad : new String[] {"", longest + "x", "a b", "tab\there", "nul\0", "del\u007f", "\u00e9t\u00e9"}) {
            final byte[] bytes = bad.getBytes(StandardCharsets.ISO_8859_1);
            assertFalse(ClientOrderIds.valid(new UnsafeBuffer(bytes), 0, bytes.length), bad);
        }
    }

    @Test
    void theHashIsFixedNeverZeroAndSpreadsSimilarIds() {
        // Pinned: the journal's ids mean these texts for ever.
        assertEquals(ClientOrderIds.hash("Run42-A1"), ClientOrderIds.hash(ascii("xRun42-A1"), 1, 8));
        assertNotEquals(ClientOrderIds.hash("A1"), ClientOrderIds.hash("A2"));
        assertNotEquals(ClientOrderIds.hash("1"), ClientOrderIds.hash("1\0"));
        final java.util.Set<Long> ids = new java.util.HashSet<>();
        for (int i = 0; i < 200_000; i++) {
            final long id = ClientOrderIds.hash("Run42-A" + i);
            assertNotEquals(0, id);
            assertTrue(ids.add(id), "no collision among 200,000 similar ids");
        }
    }

    @Test
    void claimsCountAndTheEntryGoesWithTheLastRelease() {
        try (ClOrdIdTable table = new ClOrdIdTable(tmp.resolve("t"))) {
            final long id = ClientOrderIds.hash("Run42-A1");
            assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 7, "Run42-A1"));
            assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 7, "Run42-A1"));
            assertEquals("Run42-A1", text(table, 7, id));
            assertEquals("", text(table, 8, id), "another account's order is another entry");
            table.releaseLater(7, id);
            assertEquals("Run42-A1", text(table, 7, id), "a release waits until the reports are stored");
            table.releaseStored();
            assertEquals("Run42-A1", text(table, 7, id), "one claim left");
            table.release(7, id);
            assertEquals("", text(table, 7, id));
            assertEquals(0, table.size());
            table.release(7, id);
            assertEquals(0, table.size(), "releasing an unknown id does nothing");
        }
    }

    @Test
    void aDifferentTextOnAHeldIdIsACollisionAndNeverReplacesTheText() {
        try (ClOrdIdTable table = new ClOrdIdTable(tmp.resolve("t"))) {
            final UnsafeBuffer first = ascii("first");
            final UnsafeBuffer second = ascii("second");
            assertEquals(ClOrdIdTable.Claim.CLAIMED, table.claim(1, 99, first, 0, first.capacity()));
            assertEquals(ClOrdIdTable.Claim.COLLISION, table.claim(1, 99, second, 0, second.capacity()));
            assertTrue(table.heldByAnother(1, 99, second, 0, second.capacity()));
            assertFalse(table.heldByAnother(1, 99, first, 0, first.capacity()));
            assertFalse(table.heldByAnother(2, 99, second, 0, second.capacity()));
            assertEquals("first", text(table, 1, 99));
            assertEquals(1, table.size());
        }
    }

    /** Random claims and releases against a HashMap model, with growth, reopening (as after kill -9) and removal shifts. */
    @Test
    void agreesWithAModelThroughGrowthAndReopening() {
        final SplittableRandom random = new SplittableRandom(11);
        final Map<String, Integer> claims = new HashMap<>();
        final Path file = tmp.resolve("t");
        ClOrdIdTable table = new ClOrdIdTable(file);
        try {
            for (int round = 0; round < 6; round++) {
                for (int i = 0; i < 20_000; i++) {
                    final long account = 1 + random.nextInt(3);
                    final String text = random.nextBoolean() ? "Run42-A" + random.nextInt(12_000)
                        : new UUID(0, random.nextInt(12_000)).toString();
                    final String key = account + "/" + text;
                    if (random.nextInt(3) > 0 || !claims.containsKey(key)) {
                        assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, account, text));
                        claims.merge(key, 1, Integer::sum);
                    } else {
                        table.release(account, ClientOrderIds.hash(text));
                        claims.compute(key, (k, n) -> n == 1 ? null : n - 1);
                    }
                }
                assertEquals(claims.size(), table.size());
                table.close();
                table = new ClOrdIdTable(file);
                assertEquals(claims.size(), table.size(), "every live entry survives reopening");
                for (final String key : claims.keySet()) {
                    final int slash = key.indexOf('/');
                    final String text = key.substring(slash + 1);
                    assertEquals(text, text(table, Long.parseLong(key.substring(0, slash)), ClientOrderIds.hash(text)));
                }
            }
            assertTrue(table.capacity() > ClOrdIdTable.MIN_CAPACITY, "it grew: " + table.capacity());
            assertFalse(Files.exists(tmp.resolve("t.tmp")));
        } finally {
            table.close();
        }
    }

    @Test
    void aTableLeftHalfWayThroughARemovalOrAnInsertReopensWithCompleteEntriesOnly() throws Exception {
        final Path file = tmp.resolve("t");
        try (ClOrdIdTable table = new ClOrdIdTable(file)) {
            assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 1, "kept"));
            assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 1, "halfway"));
        }
        // As a kill -9 can leave it: one slot marked 'being written' (2), and a copy of 'kept' in another free slot.
        try (RandomAccessFile raf = new RandomAccessFile(file.toFile(), "rw")) {
            final byte[] bytes = new byte[(int) raf.length()];
            raf.readFully(bytes);
            final UnsafeBuffer b = new UnsafeBuffer(bytes);
            int kept = -1;
            int half = -1;
            int free = -1;
            for (int slot = 64; slot + 96 <= bytes.length; slot += 96) {
                if (b.getInt(slot) == 1 && b.getInt(slot + 24) == 4) {
                    kept = slot;
                } else if (b.getInt(slot) == 1) {
                    half = slot;
                } else if (free < 0) {
                    free = slot;
                }
            }
            b.putBytes(free, b, kept, 96);
            b.putInt(half, 2);
            raf.seek(0);
            raf.write(bytes);
        }
        try (ClOrdIdTable table = new ClOrdIdTable(file)) {
            assertEquals(1, table.size(), "'kept' once, 'halfway' gone");
            assertEquals("kept", text(table, 1, ClientOrderIds.hash("kept")));
            assertEquals("", text(table, 1, ClientOrderIds.hash("halfway")));
        }
    }

    /** The route in each slot's last four bytes: 0 from a claim, kept through removal shifts, growth and reopening. */
    @Test
    void theRouteOfAnEntryIsSetOnceItIsLiveAndSurvivesShiftsGrowthAndReopening() {
        final Path file = tmp.resolve("t");
        ClOrdIdTable table = new ClOrdIdTable(file);
        try {
            for (int i = 0; i < 5_000; i++) {
                assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 1, "R" + i));
                assertEquals(0, table.route(1, ClientOrderIds.hash("R" + i)), "a claim has no route");
                table.route(1, ClientOrderIds.hash("R" + i), 1 + i % 300);
            }
            assertEquals(300, table.maxRoute());
            // Every third one goes: the entries after each shift back over it, routes and all.
            for (int i = 0; i < 5_000; i += 3) {
                table.release(1, ClientOrderIds.hash("R" + i));
            }
            table.close();
            table = new ClOrdIdTable(file);
            for (int i = 0; i < 5_000; i++) {
                final long id = ClientOrderIds.hash("R" + i);
                assertEquals(i % 3 == 0 ? 0 : 1 + i % 300, table.route(1, id), "R" + i);
                assertEquals(i % 3 == 0 ? "" : "R" + i, text(table, 1, id));
                assertEquals(i % 3 == 0 ? 0 : 1 + i % 300, table.foundRoute(), "text() says the route of what it found");
            }
            // A slot freed and claimed again starts without the route of the entry it held before.
            table.release(1, ClientOrderIds.hash("R1"));
            assertEquals(ClOrdIdTable.Claim.CLAIMED, claim(table, 1, "R1"));
            assertEquals(0, table.route(1, ClientOrderIds.hash("R1")));
            table.route(1, ClientOrderIds.hash("gone"), 5);
            assertEquals(0, table.route(1, ClientOrderIds.hash("gone")), "setting the route of an id not in the table does nothing");
        } finally {
            table.close();
        }
    }

    @Test
    void aForeignFileIsRefused() throws Exception {
        final Path file = tmp.resolve("t");
        Files.write(file, new byte[4096]);
        final IllegalStateException e = assertThrows(IllegalStateException.class, () -> new ClOrdIdTable(file).close());
        assertTrue(e.getMessage().contains("is not a ClOrdID table"), e.getMessage());
    }

    /** Through a gateway checkpoint: every live entry with its text and claims, released ones left out. */
    @Test
    void aCheckpointHoldsEveryLiveEntryWithItsClaims() {
        final Map<String, Integer> expected = new HashMap<>();
        try (ClOrdIdTable table = new ClOrdIdTable(tmp.resolve("t"))) {
            for (int i = 0; i < 3_000; i++) {
                final String text = "C-" + i + "-" + "x".repeat(i % 50);
                claim(table, 1 + i % 3, text);
                int claims = 1;
                if (i % 7 == 0) {
                    claim(table, 1 + i % 3, text);
                    claims = 2;
                }
                if (i % 5 == 0) {
                    table.release(1 + i % 3, ClientOrderIds.hash(text));
                    claims--;
                }
                if (claims > 0) {
                    expected.put((1 + i % 3) + "/" + text, claims);
                }
            }
            final java.nio.ByteBuffer bytes = java.nio.ByteBuffer.allocate(4 + table.size() * (22 + ClientOrderIds.MAX_LENGTH));
            table.writeLive(bytes);
            bytes.flip();
            final Map<String, Integer> back = new HashMap<>();
            ClOrdIdTable.readLive(bytes, (account, id, claims, text, length) -> {
                final String s = text.getStringWithoutLengthAscii(0, length);
                assertEquals(ClientOrderIds.hash(s), id, s);
                back.put(account + "/" + s, claims);
            });
            assertEquals(expected, back);
            assertFalse(bytes.hasRemaining(), "nothing left over");
        }
    }
}
