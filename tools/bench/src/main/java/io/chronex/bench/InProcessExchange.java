package io.chronex.bench;

import io.chronex.gateway.config.GatewayConfig;
import io.chronex.gateway.Gateway;
import io.chronex.queues.EngineConfigFile;
import io.chronex.engine.process.EngineService;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.DataDirectory;
import io.chronex.replay.Admin;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The whole exchange in one thread, for allocation tests and benchmarks: an allocation-free FIX
 * client on a real socket, the gateway's loop and the engine service on real queues in a temporary
 * directory. {@link #pair()} sends a buy that rests and a sell that fills it, and pumps everything
 * until the four reports (New, New, Trade, Trade) are back.
 */
public final class InProcessExchange implements AutoCloseable {
    private final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
    private final FixEncoder encoder = new FixEncoder(out);
    private final ByteBuffer outView = ByteBuffer.wrap(out.byteArray());
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    private final UnsafeBuffer inBuffer = new UnsafeBuffer(in);
    /** Repeated tags allowed: market-data messages repeat theirs in groups. */
    private final FixDecoder decoder = new FixDecoder(true);
    private final byte[] sender = "ALLOC".getBytes(StandardCharsets.US_ASCII);
    private final byte[] target = "CHRONEX".getBytes(StandardCharsets.US_ASCII);
    private final byte[] symbol = "ACME".getBytes(StandardCharsets.US_ASCII);
    /** A third party's route (OnBehalfOfCompID, SubID, LocationID) sent with every order when {@link #routed}. */
    private final byte[] onBehalfOf = "DESK1".getBytes(StandardCharsets.US_ASCII);
    private final byte[] onBehalfOfSub = "TRADER7".getBytes(StandardCharsets.US_ASCII);
    private final byte[] onBehalfOfLocation = "LDN".getBytes(StandardCharsets.US_ASCII);
    private boolean routed;
    private long routedReports;
    /** ClOrdID shapes real clients send (the longest, 64, last), the order's number in the last 12 characters; plus plain numbers. */
    private static final byte[][] ID_SHAPES = {
        "Run42-A1-000000000000".getBytes(StandardCharsets.US_ASCII),
        "123e4567-e89b-12d3-a456-000000000000".getBytes(StandardCharsets.US_ASCII),
        "20261123-Run42-A1-0123456789-ABCDEFGHIJKLMNOPQRSTUV-000000000000".getBytes(StandardCharsets.US_ASCII),
    };
    private final byte[] idText = new byte[64];
    private final EngineService engine;
    private final Gateway gateway;
    private final SocketChannel client;
    private int seq = 1;
    private long reports;
    private long trades;
    private long snapshots;
    private long incrementals;

    /** Orders are the client's own until {@link #routed} says they come on behalf of a third party. */
    public InProcessExchange(final Path dir, final Path projectRoot) throws Exception {
        Files.copy(projectRoot.resolve("config/engine.yaml"), dir.resolve("engine.yaml"));
        // Account 4: self-trade prevention off, so one session's buys and sells trade with each other.
        Files.writeString(dir.resolve("gateway.yaml"),
            "port: 0\nengineConfig: engine.yaml\nsessions:\n  - {senderCompId: ALLOC, account: 4}\n");
        final GatewayConfig config = GatewayConfig.load(dir.resolve("gateway.yaml"));
        final DataDirectory data = DataDirectory.open(dir.resolve("data"));
        // FUNDS is on in the shipped configuration: account 4 is funded (config/demo-funding.admin) before it trades; the
        // engine answers the deposits first.
        Admin.journal(data, projectRoot.resolve("config/demo-funding.admin"), dir.resolve("engine.yaml"));
        engine = new EngineService(data, EngineConfigFile.load(dir.resolve("engine.yaml")), 0, w -> { });
        gateway = new Gateway(config, 1, 0, data, line -> { });
        client = SocketChannel.open(new InetSocketAddress("127.0.0.1", gateway.port()));
        client.configureBlocking(false);
        header(FixMsgTypes.LOGON).addLong(FixTags.ENCRYPT_METHOD, 0).addLong(FixTags.HEART_BT_INT, 30)
            .addBoolean(FixTags.RESET_SEQ_NUM_FLAG, true);
        send();
        while (reports == 0) {
            pump();
        }
    }

    /**
     * Subscribes the session to ACME's market data twice, at full depth with trades and at depth 10, so that every
     * {@link #pair()} also builds four MarketDataIncrementalRefresh (X); returns once both snapshots are back.
     */
    public void subscribeMarketData() throws Exception {
        subscribe("d0", 0, true);
        subscribe("d10", 10, false);
        final long expected = snapshots + 2;
        while (snapshots < expected) {
            pump();
        }
    }

    private void subscribe(final String id, final int depth, final boolean trades) throws Exception {
        final FixEncoder e = header(FixMsgTypes.MARKET_DATA_REQUEST).addAscii(FixTags.MD_REQ_ID, id)
            .addChar(FixTags.SUBSCRIPTION_REQUEST_TYPE, '1').addLong(FixTags.MARKET_DEPTH, depth).addLong(FixTags.MD_UPDATE_TYPE, 1)
            .addLong(FixTags.NO_MD_ENTRY_TYPES, trades ? 3 : 2).addChar(FixTags.MD_ENTRY_TYPE, '0').addChar(FixTags.MD_ENTRY_TYPE, '1');
        if (trades) {
            e.addChar(FixTags.MD_ENTRY_TYPE, '2');
        }
        e.addLong(FixTags.NO_RELATED_SYM, 1).addAscii(FixTags.SYMBOL, symbol);
        send();
    }

    /** MarketDataIncrementalRefresh (X) messages received so far. */
    public long incrementals() {
        return incrementals;
    }

    /** One buy that rests and one sell that fills it, through the whole exchange; returns when all four reports are back. */
    public void pair() throws Exception {
        final long expected = reports + 4;
        order('1');
        order('2');
        while (reports < expected) {
            pump();
        }
    }

    private void order(final char side) throws Exception {
        final long id = seq;
        final FixEncoder e = header(FixMsgTypes.NEW_ORDER_SINGLE);
        if (routed) {
            e.addAscii(FixTags.ON_BEHALF_OF_COMP_ID, onBehalfOf).addAscii(FixTags.ON_BEHALF_OF_SUB_ID, onBehalfOfSub)
                .addAscii(FixTags.ON_BEHALF_OF_LOCATION_ID, onBehalfOfLocation);
        }
        final int shape = (int) (id & 3);
        if (shape == ID_SHAPES.length) {
            e.addLong(FixTags.CL_ORD_ID, id);
        } else {
            e.addAscii(FixTags.CL_ORD_ID, idText, idText(ID_SHAPES[shape], id));
        }
        e.addAscii(FixTags.SYMBOL, symbol)
            .addChar(FixTags.SIDE, side).addUtcTimestamp(FixTags.TRANSACT_TIME, 1_795_349_467_123L).addLong(FixTags.ORDER_QTY, 1)
            .addChar(FixTags.ORD_TYPE, '2').addDecimal(FixTags.PRICE, 10000, 2);
        send();
    }

    /** Copies shape into idText with n's last 12 decimal digits at its end; returns the length. */
    private int idText(final byte[] shape, final long n) {
        System.arraycopy(shape, 0, idText, 0, shape.length);
        long v = n;
        for (int i = shape.length - 1; i >= shape.length - 12; i--) {
            idText[i] = (byte) ('0' + v % 10);
            v /= 10;
        }
        return shape.length;
    }

    private FixEncoder header(final int msgType) {
        return encoder.start(0, msgType).addAscii(FixTags.SENDER_COMP_ID, sender).addAscii(FixTags.TARGET_COMP_ID, target)
            .addLong(FixTags.MSG_SEQ_NUM, seq++).addUtcTimestamp(FixTags.SENDING_TIME, System.currentTimeMillis());
    }

    private void send() throws Exception {
        final int length = encoder.finish();
        outView.limit(encoder.messageOffset() + length).position(encoder.messageOffset());
        while (outView.hasRemaining()) {
            client.write(outView);
        }
    }

    private void pump() throws Exception {
        gateway.doWork();
        engine.poll();
        if (client.read(in) > 0) {
            final int limit = in.position();
            int position = 0;
            while (true) {
                final int length = FixDecoder.frame(inBuffer, position, limit - position, 1 << 16);
                if (length <= 0) {
                    break;
                }
                decoder.decode(inBuffer, position, length);
                if (decoder.msgType() == FixMsgTypes.EXECUTION_REPORT || decoder.msgType() == FixMsgTypes.LOGON) {
                    reports++;
                }
                if (decoder.msgType() == FixMsgTypes.MARKET_DATA_SNAPSHOT_FULL_REFRESH) {
                    snapshots++;
                }
                if (decoder.msgType() == FixMsgTypes.MARKET_DATA_INCREMENTAL_REFRESH) {
                    incrementals++;
                }
                if (decoder.msgType() == FixMsgTypes.EXECUTION_REPORT && decoder.charValue(FixTags.EXEC_TYPE) == 'F') {
                    trades++;
                }
                if (decoder.msgType() == FixMsgTypes.EXECUTION_REPORT && decoder.valueEquals(FixTags.DELIVER_TO_COMP_ID, onBehalfOf)
                    && decoder.valueEquals(FixTags.DELIVER_TO_LOCATION_ID, onBehalfOfLocation)) {
                    routedReports++;
                }
                position += length;
            }
            inBuffer.putBytes(0, inBuffer, position, limit - position);
            in.position(limit - position);
        }
    }

    /**
     * Whether the orders sent from now on come on behalf of a third party (115, 116, 144), so that every report goes back
     * with 128, 129, 145.
     */
    public void routed(final boolean onBehalfOfAThirdParty) {
        this.routed = onBehalfOfAThirdParty;
    }

    /** ExecutionReports received so far that carried the route of a routed exchange back (DeliverToCompID, DeliverToLocationID). */
    public long routedReports() {
        return routedReports;
    }

    /** Trade reports received so far (two per {@link #pair()} when every order was accepted). */
    public long trades() {
        return trades;
    }

    @Override
    public void close() throws IOException {
        client.close();
        gateway.close();
        engine.close();
    }
}
