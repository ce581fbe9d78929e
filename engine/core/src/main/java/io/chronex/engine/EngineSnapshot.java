package io.chronex.engine;

import io.chronex.api.AccountSpec;
import io.chronex.api.AssetSpec;
import io.chronex.api.EngineConfig;
import io.chronex.api.RiskCheck;
import io.chronex.api.SelfTradePrevention;
import io.chronex.api.Side;
import io.chronex.api.SymbolSpec;
import io.chronex.api.TimeInForce;
import io.chronex.engine.risk.Ledger;
import io.chronex.engine.risk.Wallet;

import org.agrona.collections.Long2ObjectHashMap;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The engine's whole state to bytes and back. The encoding is canonical (symbols and accounts by
 * id, orders in queue order, no hash-map order anywhere), so equal states give equal bytes and the
 * state hash is simply a hash of the bytes. The last 8 bytes are that hash of everything before them,
 * so a flipped bit or a torn write is detected before anything is read. Not on the per-command hot
 * path (allocation allowed), but a snapshot taken while serving stops matching while the state is
 * copied, so the copy is written straight into an array and the checksum can be left to another
 * thread ({@link #writeUnsealed}, {@link #seal}).
 */
final class EngineSnapshot {
    private static final long MAGIC = 0x43485845_534E4150L; // "CHXESNAP"
    /** Version 1 had no money (assets, balances, holds); it is still read. */
    private static final int VERSION_WITHOUT_MONEY = 1;
    private static final int VERSION = 2;

    // The layout: big-endian (DataOutputStream's), one section after another, each field in the
    // order written; no offsets, as names make the book entries' lengths vary.
    //   header    magic i64, version i32, risk checks i32, create accounts on first use (bool),
    //             default account's limits (ACCOUNT_LIMITS_BYTES), command count i64, last order id i64,
    //             last trade id i64
    //   assets    count i32; each: id i32, code (u16 length + modified UTF-8), decimals i32, deposited,
    //             withdrawn, adjusted, fees collected (ASSET_TOTALS_BYTES); then the applied money
    //             references: count i32, each i64 ascending
    //   books     count i32; each: symbol i32, name (u16 length + modified UTF-8), price scale, tick size,
    //             lot size, price band basis points, reference price (5 x i64), halted (bool), base and
    //             quote asset (2 x i32), base scale, quote scale, taker fee, maker fee (4 x i64)
    //   accounts  count i32; each (ACCOUNT_BYTES): id i64, limits (ACCOUNT_LIMITS_BYTES), kill switch (bool),
    //             then per asset in id order available and held (2 x i64)
    //   orders    count i32; each (ORDER_BYTES), in book and queue order: order id, account id, client order
    //             id (3 x i64), symbol i32, side u8, time in force u8, post-only (bool), price, quantity,
    //             leaves, cumulative (4 x i64), held amount, hold price (2 x i64), reserved (bool)
    // Version 1 is the same without the assets section and the money fields of books, accounts and orders: it is what
    // an engine without assets still writes, byte for byte as before money existed, so the configuration hash a data
    // directory without money was pinned to stays what it was.
    //   checksum  i64 (CHECKSUM_BYTES): hash() of everything before it
    /** Max order quantity i64, max order notional i64, max open orders i32, self-trade prevention u8. */
    private static final int ACCOUNT_LIMITS_BYTES = 2 * Long.BYTES + Integer.BYTES + 1;
    private static final int ACCOUNT_BYTES = Long.BYTES + ACCOUNT_LIMITS_BYTES + 1;
    private static final int ORDER_BYTES = 3 * Long.BYTES + Integer.BYTES + 3 + 4 * Long.BYTES + 2 * Long.BYTES + 1;
    private static final int ASSET_TOTALS_BYTES = 4 * Long.BYTES;
    private static final int ASSET_FIXED_BYTES = Integer.BYTES + 2 + Integer.BYTES + ASSET_TOTALS_BYTES;
    private static final int CHECKSUM_BYTES = Long.BYTES;
    /** The header, the three counts and the checksum. */
    private static final int FIXED_BYTES = Long.BYTES + 2 * Integer.BYTES + 1 + ACCOUNT_LIMITS_BYTES + 3 * Long.BYTES
        + 5 * Integer.BYTES + CHECKSUM_BYTES;
    /** A book without its name's characters: symbol, the name's length, five i64, halted, the money terms. */
    private static final int BOOK_FIXED_BYTES = Integer.BYTES + 2 + 5 * Long.BYTES + 1 + 2 * Integer.BYTES + 4 * Long.BYTES;
    /** Modified UTF-8 takes at most 3 bytes per char. */
    private static final int MAX_UTF_BYTES_PER_CHAR = 3;

    private EngineSnapshot() {
    }

    /** The whole state, sealed with its checksum. */
    static byte[] write(final MatchingEngine engine) {
        return seal(writeUnsealed(engine));
    }

    /**
     * The whole state with the last 8 bytes left for the checksum: the part of a snapshot that
     * must run on the engine thread, written straight into one array (no streams, no locks),
     * because the engine stops matching for as long as it takes.
     */
    static byte[] writeUnsealed(final MatchingEngine engine) {
        final OrderBook[] books = engine.books();
        int orderCount = 0;
        int capacity = FIXED_BYTES;
        for (final OrderBook book : books) {
            orderCount += countOrders(book.bids) + countOrders(book.asks);
            capacity += BOOK_FIXED_BYTES + MAX_UTF_BYTES_PER_CHAR * book.name.length();
        }
        final Ledger ledger = engine.ledger();
        final int assetCount = ledger.assetCount();
        final long[] references = ledger.references();
        for (int i = 0; i < assetCount; i++) {
            capacity += ASSET_FIXED_BYTES + MAX_UTF_BYTES_PER_CHAR * ledger.asset(i).code().length();
        }
        capacity += Long.BYTES * references.length;
        // Sized up front (an upper bound), so the copy is written without growing the array.
        final Out out = new Out(capacity + (ACCOUNT_BYTES + 2 * Long.BYTES * assetCount) * engine.accounts().size()
            + ORDER_BYTES * orderCount);
        final boolean money = assetCount > 0;
        out.writeLong(MAGIC);
        out.writeInt(money ? VERSION : VERSION_WITHOUT_MONEY);
        // Without assets FUNDS changes nothing, and version 1 was written before it existed: leaving its bit out keeps the
        // bytes, and so the configuration hash, of every configuration that says "all" as they were.
        out.writeInt(money ? engine.riskChecks() : engine.riskChecks() & ~RiskCheck.FUNDS.bit());
        out.writeBoolean(engine.createAccountsOnFirstUse());
        writeAccountLimits(out, engine.defaultAccount().maxOrderQuantity(), engine.defaultAccount().maxOrderNotional(),
            engine.defaultAccount().maxOpenOrders(), engine.defaultAccount().selfTradePrevention());
        out.writeLong(engine.commandCount());
        out.writeLong(engine.lastOrderId());
        out.writeLong(engine.lastTradeId());

        if (money) {
            writeAssets(out, ledger, references);
        }

        out.writeInt(books.length);
        for (final OrderBook book : books) {
            out.writeInt(book.symbol);
            out.writeUtf(book.name);
            out.writeLong(book.priceScale);
            out.writeLong(book.tickSize);
            out.writeLong(book.lotSize);
            out.writeLong(book.priceBandBasisPoints);
            out.writeLong(book.referencePrice);
            out.writeBoolean(book.halted);
            if (!money) {
                continue;
            }
            final SymbolSpec spec = book.spec();
            out.writeInt(spec.baseAsset());
            out.writeInt(spec.quoteAsset());
            out.writeLong(spec.baseScale());
            out.writeLong(spec.quoteScale());
            out.writeLong(spec.takerFee());
            out.writeLong(spec.makerFee());
        }

        final Long2ObjectHashMap<Account> accounts = engine.accounts();
        final long[] accountIds = new long[accounts.size()];
        int next = 0;
        for (final Long2ObjectHashMap<Account>.KeyIterator ids = accounts.keySet().iterator(); ids.hasNext(); ) {
            accountIds[next++] = ids.nextLong();
        }
        Arrays.sort(accountIds);
        out.writeInt(accountIds.length);
        for (final long id : accountIds) {
            final Account account = accounts.get(id);
            out.writeLong(id);
            writeAccountLimits(out, account.maxOrderQuantity, account.maxOrderNotional, account.maxOpenOrders,
                account.selfTradePrevention);
            out.writeBoolean(account.killSwitch);
            for (int i = 0; i < assetCount; i++) {
                out.writeLong(account.wallet.available(i));
                out.writeLong(account.wallet.held(i));
            }
        }

        out.writeInt(orderCount);
        for (final OrderBook book : books) {
            writeOrders(out, book, book.bids, money);
            writeOrders(out, book, book.asks, money);
        }
        out.writeLong(0); // the checksum's place
        return out.toByteArray();
    }

    private static void writeAssets(final Out out, final Ledger ledger, final long[] references) {
        out.writeInt(ledger.assetCount());
        for (int i = 0; i < ledger.assetCount(); i++) {
            final AssetSpec asset = ledger.asset(i);
            out.writeInt(asset.id());
            out.writeUtf(asset.code());
            out.writeInt(asset.decimals());
            out.writeLong(ledger.deposited(i));
            out.writeLong(ledger.withdrawn(i));
            out.writeLong(ledger.adjusted(i));
            out.writeLong(ledger.fees(i));
        }
        out.writeInt(references.length);
        for (final long reference : references) {
            out.writeLong(reference);
        }
    }

    /** Fills in the checksum of a snapshot from {@link #writeUnsealed}; returns the same array. */
    static byte[] seal(final byte[] unsealed) {
        final int bodyLength = unsealed.length - CHECKSUM_BYTES;
        ByteBuffer.wrap(unsealed, bodyLength, CHECKSUM_BYTES).putLong(hash(unsealed, bodyLength));
        return unsealed;
    }

    /** The state hash: the checksum a snapshot ends with. */
    static long stateHash(final byte[] snapshot) {
        return ByteBuffer.wrap(snapshot, snapshot.length - CHECKSUM_BYTES, CHECKSUM_BYTES).getLong();
    }

    private static void writeAccountLimits(final Out out, final long maxOrderQuantity, final long maxOrderNotional,
                                           final int maxOpenOrders, final SelfTradePrevention stp) {
        out.writeLong(maxOrderQuantity);
        out.writeLong(maxOrderNotional);
        out.writeInt(maxOpenOrders);
        out.writeByte(stp.ordinal());
    }

    private static int countOrders(final BookSide side) {
        int count = 0;
        for (PriceLevel level = side.best(); level != null; level = side.worseThan(level)) {
            count += level.orderCount;
        }
        return count;
    }

    private static void writeOrders(final Out out, final OrderBook book, final BookSide side, final boolean money) {
        for (PriceLevel level = side.best(); level != null; level = side.worseThan(level)) {
            for (Order order = level.head; order != null; order = order.next) {
                out.writeLong(order.orderId);
                out.writeLong(order.account.id);
                out.writeLong(order.clientOrderId);
                out.writeInt(book.symbol);
                out.writeByte(order.side.ordinal());
                out.writeByte(order.timeInForce.ordinal());
                out.writeBoolean(order.postOnly);
                out.writeLong(order.price);
                out.writeLong(order.quantity);
                out.writeLong(order.leaves);
                out.writeLong(order.cumulative);
                if (money) {
                    out.writeLong(order.hold.amount);
                    out.writeLong(order.hold.price);
                    out.writeBoolean(order.hold.reserved);
                }
            }
        }
    }

    /**
     * Big-endian writes into a growing array, byte for byte what {@link java.io.DataOutputStream}
     * writes (the format predates this class, and {@link #read} still reads it with a stream).
     */
    private static final class Out {
        private byte[] bytes;
        private int length;

        Out(final int capacity) {
            bytes = new byte[capacity];
        }

        private void ensure(final int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        void writeByte(final int value) {
            ensure(1);
            bytes[length++] = (byte) value;
        }

        void writeBoolean(final boolean value) {
            writeByte(value ? 1 : 0);
        }

        void writeInt(final int value) {
            ensure(Integer.BYTES);
            final byte[] b = bytes;
            int at = length;
            b[at++] = (byte) (value >>> 24);
            b[at++] = (byte) (value >>> 16);
            b[at++] = (byte) (value >>> 8);
            b[at++] = (byte) value;
            length = at;
        }

        void writeLong(final long value) {
            writeInt((int) (value >>> 32));
            writeInt((int) value);
        }

        /** Java's modified UTF-8 with a 2-byte length, as DataOutputStream.writeUTF. */
        void writeUtf(final String text) {
            int encoded = 0;
            for (int i = 0; i < text.length(); i++) {
                final char c = text.charAt(i);
                encoded += c >= 0x0001 && c <= 0x007F ? 1 : c <= 0x07FF ? 2 : 3;
            }
            if (encoded > 0xFFFF) {
                throw new IllegalArgumentException("name too long for a snapshot: " + encoded + " bytes encoded");
            }
            ensure(2 + encoded);
            bytes[length++] = (byte) (encoded >>> 8);
            bytes[length++] = (byte) encoded;
            for (int i = 0; i < text.length(); i++) {
                final char c = text.charAt(i);
                if (c >= 0x0001 && c <= 0x007F) {
                    bytes[length++] = (byte) c;
                } else if (c <= 0x07FF) {
                    bytes[length++] = (byte) (0xC0 | ((c >> 6) & 0x1F));
                    bytes[length++] = (byte) (0x80 | (c & 0x3F));
                } else {
                    bytes[length++] = (byte) (0xE0 | ((c >> 12) & 0x0F));
                    bytes[length++] = (byte) (0x80 | ((c >> 6) & 0x3F));
                    bytes[length++] = (byte) (0x80 | (c & 0x3F));
                }
            }
        }

        byte[] toByteArray() {
            return Arrays.copyOf(bytes, length);
        }
    }

    /** The state hash a snapshot ends with, once its bytes are checked against it; a damaged snapshot is an IllegalArgumentException. */
    static long checkedStateHash(final byte[] snapshot) {
        if (snapshot.length < Long.BYTES + CHECKSUM_BYTES) { // not even the magic and the checksum
            throw new IllegalArgumentException("corrupt engine snapshot: only " + snapshot.length + " bytes");
        }
        final int bodyLength = snapshot.length - CHECKSUM_BYTES;
        if (hash(snapshot, bodyLength) != stateHash(snapshot)) {
            throw new IllegalArgumentException("corrupt engine snapshot: checksum does not match its " + bodyLength + " bytes");
        }
        return stateHash(snapshot);
    }

    static MatchingEngine read(final byte[] snapshot) {
        return read(snapshot, config -> config);
    }

    /**
     * The state, with {@code edit} applied to the configuration it holds before the engine is built: a configuration change
     * (symbols and accounts appended, specs and limits replaced in place, so the sections' order still lines up).
     */
    static MatchingEngine read(final byte[] snapshot, final java.util.function.UnaryOperator<EngineConfig> edit) {
        checkedStateHash(snapshot);
        final int bodyLength = snapshot.length - CHECKSUM_BYTES;
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(snapshot, 0, bodyLength))) {
            if (in.readLong() != MAGIC) {
                throw new IllegalArgumentException("not an engine snapshot (bad magic)");
            }
            final int version = in.readInt();
            if (version != VERSION && version != VERSION_WITHOUT_MONEY) {
                throw new IllegalArgumentException("engine snapshot version " + version + " not supported (expected " + VERSION + ")");
            }
            final boolean money = version == VERSION;
            final int riskChecks = in.readInt();
            final boolean createAccounts = in.readBoolean();
            final AccountSpec defaultAccount = readAccountSpec(in, 0);
            final long commandCount = in.readLong();
            final long lastOrderId = in.readLong();
            final long lastTradeId = in.readLong();

            final int assetCount = money ? checkedCount(in.readInt(), snapshot.length, "assets") : 0;
            final List<AssetSpec> assets = new ArrayList<>(assetCount);
            final long[][] totals = new long[assetCount][];
            for (int i = 0; i < assetCount; i++) {
                assets.add(new AssetSpec(in.readInt(), in.readUTF(), in.readInt()));
                totals[i] = new long[] {in.readLong(), in.readLong(), in.readLong(), in.readLong()};
            }
            final long[] references = new long[money ? checkedCount(in.readInt(), snapshot.length, "references") : 0];
            for (int i = 0; i < references.length; i++) {
                references[i] = in.readLong();
            }

            final int symbolCount = checkedCount(in.readInt(), snapshot.length, "symbols");
            final List<SymbolSpec> symbols = new ArrayList<>(symbolCount);
            final boolean[] halted = new boolean[symbolCount];
            for (int i = 0; i < symbolCount; i++) {
                final SymbolSpec plain = new SymbolSpec(in.readInt(), in.readUTF(), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong(), in.readLong());
                halted[i] = in.readBoolean();
                symbols.add(money ? plain.withAssets(in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readLong(),
                    in.readLong()) : plain);
            }
            final int accountCount = checkedCount(in.readInt(), snapshot.length, "accounts");
            final List<AccountSpec> accounts = new ArrayList<>(accountCount);
            final boolean[] killSwitch = new boolean[accountCount];
            final long[][] balances = new long[accountCount][];
            for (int i = 0; i < accountCount; i++) {
                accounts.add(readAccountSpec(in, in.readLong()));
                killSwitch[i] = in.readBoolean();
                balances[i] = new long[2 * assetCount];
                for (int j = 0; j < balances[i].length; j++) {
                    balances[i][j] = in.readLong();
                }
            }
            final MatchingEngine engine = new MatchingEngine(
                edit.apply(new EngineConfig(symbols, accounts, riskChecks, createAccounts, defaultAccount, assets)));
            restoreMoney(engine, accounts, totals, references, balances);
            for (int i = 0; i < symbolCount; i++) {
                engine.bookOf(symbols.get(i).id()).halted = halted[i];
            }
            for (int i = 0; i < accountCount; i++) {
                engine.accounts().get(accounts.get(i).id()).killSwitch = killSwitch[i];
            }

            final int orderCount = checkedCount(in.readInt(), snapshot.length, "orders");
            final Order[] orders = new Order[orderCount];
            for (int i = 0; i < orderCount; i++) {
                final Order order = engine.newOrderForRestore();
                order.orderId = in.readLong();
                order.accountId = in.readLong();
                order.account = engine.accounts().get(order.accountId);
                order.clientOrderId = in.readLong();
                order.book = engine.bookOf(in.readInt());
                order.side = Side.fromOrdinal(in.readByte());
                order.timeInForce = TimeInForce.fromOrdinal(in.readByte());
                order.postOnly = in.readBoolean();
                order.price = in.readLong();
                order.quantity = in.readLong();
                order.leaves = in.readLong();
                order.cumulative = in.readLong();
                if (money) {
                    order.hold.amount = in.readLong();
                    order.hold.price = in.readLong();
                    order.hold.reserved = in.readBoolean();
                }
                if (order.account == null || order.book == null || order.side == null || order.timeInForce == null) {
                    throw new IllegalArgumentException("corrupt engine snapshot: order " + order.orderId + " refers to nothing");
                }
                engine.restoreResting(order);
                orders[i] = order;
            }
            // Account lists are in engine-id order, which is the order they were created in.
            Arrays.sort(orders, (a, b) -> Long.compare(a.orderId, b.orderId));
            for (final Order order : orders) {
                order.account.add(order);
            }
            engine.restoreCounters(commandCount, lastOrderId, lastTradeId);
            if (in.read() != -1) {
                throw new IllegalArgumentException("corrupt engine snapshot: trailing bytes");
            }
            return engine;
        } catch (final IOException e) {
            throw new IllegalArgumentException("corrupt engine snapshot: " + e, e);
        }
    }

    /** Puts back the ledger's totals and references and every account's balances, as read. */
    private static void restoreMoney(final MatchingEngine engine, final List<AccountSpec> accounts, final long[][] totals,
                                      final long[] references, final long[][] balances) {
        final Ledger ledger = engine.ledger();
        for (int i = 0; i < totals.length; i++) {
            ledger.restoreTotals(i, totals[i][0], totals[i][1], totals[i][2], totals[i][3]);
        }
        for (final long reference : references) {
            ledger.restoreReference(reference);
        }
        for (int i = 0; i < accounts.size(); i++) {
            final Wallet wallet = engine.accounts().get(accounts.get(i).id()).wallet;
            for (int asset = 0; asset < totals.length; asset++) {
                ledger.restoreBalances(wallet, asset, balances[i][2 * asset], balances[i][2 * asset + 1]);
            }
        }
    }

    /** A count read from the bytes must fit in them, so a corrupt count fails cleanly instead of allocating gigabytes. */
    private static int checkedCount(final int count, final int snapshotLength, final String what) {
        if (count < 0 || count > snapshotLength / 8) {
            throw new IllegalArgumentException("corrupt engine snapshot: " + count + " " + what + " in " + snapshotLength + " bytes");
        }
        return count;
    }

    private static AccountSpec readAccountSpec(final DataInputStream in, final long id) throws IOException {
        final long maxOrderQuantity = in.readLong();
        final long maxOrderNotional = in.readLong();
        final int maxOpenOrders = in.readInt();
        final SelfTradePrevention stp = SelfTradePrevention.fromOrdinal(in.readByte());
        return new AccountSpec(id, maxOrderQuantity, maxOrderNotional, maxOpenOrders, stp);
    }

    /** 64-bit FNV-1a over the first length bytes, finished with a mix so nearby states spread apart. */
    static long hash(final byte[] bytes, final int length) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            hash ^= bytes[i] & 0xff;
            hash *= 0x100000001b3L;
        }
        hash ^= hash >>> 33;
        hash *= 0xff51afd7ed558ccdL;
        hash ^= hash >>> 33;
        return hash;
    }
}
