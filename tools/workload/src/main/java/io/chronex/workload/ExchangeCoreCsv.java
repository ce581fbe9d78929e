package io.chronex.workload;

import io.chronex.api.Command;
import io.chronex.api.OrderType;
import io.chronex.api.Side;
import io.chronex.api.TimeInForce;

import java.io.BufferedInputStream;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.zip.GZIPInputStream;

/**
 * An exchange-core benchmark stream (see workloads/ec-1M/README.md) loaded once into
 * primitive arrays, so replays and benchmarks fill a reused {@link Command} per row without parsing
 * or allocating. Mapping: account = uid, client order id = orderId, BID = BUY, GTC and IOC limit
 * orders, FOK_BUDGET with the budget as price; MOVE, CANCEL and REDUCE name (uid, orderId).
 */
public final class ExchangeCoreCsv {
    /** The header every file in this format starts with. */
    public static final String HEADER = "seq,phase,cmd,uid,orderId,side,type,price,reservePrice,size";

    /** Row kinds, in the order of the kind array. */
    public static final byte PLACE_GTC = 0;
    public static final byte PLACE_IOC = 1;
    public static final byte PLACE_FOK_BUDGET = 2;
    public static final byte MOVE = 3;
    public static final byte CANCEL = 4;
    public static final byte REDUCE = 5;

    private final int symbol;
    private int size;
    private byte[] kind = new byte[1024];
    private boolean[] fillPhase = new boolean[1024];
    private boolean[] buy = new boolean[1024];
    private long[] account = new long[1024];
    private long[] orderId = new long[1024];
    private long[] price = new long[1024];
    private long[] quantity = new long[1024];
    /** A bid's reservePrice (exchange-core holds its funds at it), 0 for anything else. */
    private long[] reserve = new long[1024];

    private ExchangeCoreCsv(final int symbol) {
        this.symbol = symbol;
    }

    /** Reads a plain or gzipped (by its magic bytes) file; rows become commands for the given symbol. */
    public static ExchangeCoreCsv load(final Path file, final int symbol) throws IOException {
        final ExchangeCoreCsv csv = new ExchangeCoreCsv(symbol);
        try (InputStream raw = new BufferedInputStream(Files.newInputStream(file), 1 << 16)) {
            raw.mark(2);
            final boolean gzip = raw.read() == 0x1f && raw.read() == 0x8b;
            raw.reset();
            final InputStream in = gzip ? new GZIPInputStream(raw, 1 << 16) : raw;
            final BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.US_ASCII), 1 << 16);
            final String header = reader.readLine();
            if (!HEADER.equals(header)) {
                throw new IOException(file + ":1: expected header '" + HEADER + "', found '" + header + "'");
            }
            int lineNumber = 1;
            String line;
            while ((line = reader.readLine()) != null) {
                lineNumber++;
                if (!line.isEmpty()) {
                    try {
                        csv.add(line);
                    } catch (final RuntimeException e) {
                        throw new IOException(file + ":" + lineNumber + ": " + e.getMessage() + " in '" + line + "'", e);
                    }
                }
            }
        }
        csv.trim();
        return csv;
    }

    private void add(final String line) {
        final String[] f = line.split(",", -1);
        if (f.length != 10) {
            throw new IllegalArgumentException("expected 10 fields, found " + f.length);
        }
        if (Long.parseLong(f[0]) != size) {
            throw new IllegalArgumentException("seq " + f[0] + " out of order, expected " + size);
        }
        if (size == kind.length) {
            final int capacity = size * 2;
            kind = Arrays.copyOf(kind, capacity);
            fillPhase = Arrays.copyOf(fillPhase, capacity);
            buy = Arrays.copyOf(buy, capacity);
            account = Arrays.copyOf(account, capacity);
            orderId = Arrays.copyOf(orderId, capacity);
            price = Arrays.copyOf(price, capacity);
            quantity = Arrays.copyOf(quantity, capacity);
            reserve = Arrays.copyOf(reserve, capacity);
        }
        fillPhase[size] = switch (f[1]) {
            case "F" -> true;
            case "B" -> false;
            default -> throw new IllegalArgumentException("unknown phase '" + f[1] + "'");
        };
        account[size] = Long.parseLong(f[3]);
        orderId[size] = Long.parseLong(f[4]);
        buy[size] = switch (f[5]) {
            case "BID" -> true;
            case "ASK" -> false;
            default -> throw new IllegalArgumentException("unknown side '" + f[5] + "'");
        };
        switch (f[2]) {
            case "PLACE" -> {
                kind[size] = switch (f[6]) {
                    case "GTC" -> PLACE_GTC;
                    case "IOC" -> PLACE_IOC;
                    case "FOK_BUDGET" -> PLACE_FOK_BUDGET;
                    default -> throw new IllegalArgumentException("unknown order type '" + f[6] + "'");
                };
                price[size] = Long.parseLong(f[7]);
                quantity[size] = Long.parseLong(f[9]);
                // exchange-core ignores an ask's reserve price; so do we.
                reserve[size] = buy[size] && !f[8].isEmpty() ? Long.parseLong(f[8]) : 0;
            }
            case "MOVE" -> {
                kind[size] = MOVE;
                price[size] = Long.parseLong(f[7]);
            }
            case "CANCEL" -> kind[size] = CANCEL;
            case "REDUCE" -> {
                kind[size] = REDUCE;
                quantity[size] = Long.parseLong(f[9]);
            }
            default -> throw new IllegalArgumentException("unknown command '" + f[2] + "'");
        }
        size++;
    }

    private void trim() {
        kind = Arrays.copyOf(kind, size);
        fillPhase = Arrays.copyOf(fillPhase, size);
        buy = Arrays.copyOf(buy, size);
        account = Arrays.copyOf(account, size);
        orderId = Arrays.copyOf(orderId, size);
        price = Arrays.copyOf(price, size);
        quantity = Arrays.copyOf(quantity, size);
        reserve = Arrays.copyOf(reserve, size);
    }

    public int size() {
        return size;
    }

    public int symbol() {
        return symbol;
    }

    public byte kind(final int row) {
        return kind[row];
    }

    /** True for the pre-fill rows that build the book before the timed benchmark phase. */
    public boolean isFillPhase(final int row) {
        return fillPhase[row];
    }

    /** Fills command with row's command, overwriting every field. */
    public Command commandAt(final int row, final Command command) {
        final long uid = account[row];
        final long id = orderId[row];
        switch (kind[row]) {
            case PLACE_GTC -> command.newOrder(uid, symbol, id, side(row), OrderType.LIMIT, TimeInForce.GTC, price[row], quantity[row])
                .reservePrice = reserve[row];
            case PLACE_IOC -> command.newOrder(uid, symbol, id, side(row), OrderType.LIMIT, TimeInForce.IOC, price[row], quantity[row])
                .reservePrice = reserve[row];
            case PLACE_FOK_BUDGET -> command.newOrder(uid, symbol, id, side(row), OrderType.LIMIT, TimeInForce.FOK_BUDGET, price[row],
                quantity[row]).reservePrice = reserve[row];
            case MOVE -> command.move(uid, id, price[row]);
            case CANCEL -> command.cancel(uid, id);
            default -> command.reduce(uid, id, quantity[row]);
        }
        return command;
    }

    /** The accounts (uids) the rows name, ascending, each once. */
    public long[] accounts() {
        return Arrays.stream(account, 0, size).distinct().sorted().toArray();
    }

    private Side side(final int row) {
        return buy[row] ? Side.BUY : Side.SELL;
    }

    /** The row as the file wrote it (an ask's reservePrice, which the loader drops, left empty), for failure messages. */
    public String describe(final int row) {
        final String type = switch (kind[row]) {
            case PLACE_GTC -> "GTC";
            case PLACE_IOC -> "IOC";
            case PLACE_FOK_BUDGET -> "FOK_BUDGET";
            default -> "";
        };
        final boolean place = type.length() > 0;
        return row + "," + (fillPhase[row] ? 'F' : 'B') + "," + commandName(row) + "," + account[row] + "," + orderId[row] + ","
            + (buy[row] ? "BID" : "ASK") + "," + type + "," + (place || kind[row] == MOVE ? Long.toString(price[row]) : "") + ","
            + (reserve[row] != 0 ? Long.toString(reserve[row]) : "") + ","
            + (place || kind[row] == REDUCE ? Long.toString(quantity[row]) : "");
    }

    /** The row's command name as the file writes it: PLACE, MOVE, CANCEL or REDUCE. */
    public String commandName(final int row) {
        return switch (kind[row]) {
            case PLACE_GTC, PLACE_IOC, PLACE_FOK_BUDGET -> "PLACE";
            case MOVE -> "MOVE";
            case CANCEL -> "CANCEL";
            default -> "REDUCE";
        };
    }
}
