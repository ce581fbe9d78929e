package io.chronex.gateway;

import io.chronex.engine.process.EngineConfigFile;
import io.chronex.engine.process.EngineService;
import io.chronex.gateway.fix.FixDecoder;
import io.chronex.gateway.fix.FixEncoder;
import io.chronex.gateway.fix.FixMsgTypes;
import io.chronex.gateway.fix.FixTags;
import io.chronex.queues.DataDirectory;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole hot path in one thread, counted by the thread's allocation counter: a FIX client
 * (allocation-free itself) sends orders that trade, the gateway decodes and journals them, the
 * engine matches and appends results, the gateway encodes, stores and writes the reports, the
 * client reads them. After warm-up, 40,000 orders must allocate (next to) nothing.
 */
class GatewaySteadyStateAllocationTest {
    private static final int PAIRS = 20_000;

    @TempDir
    Path tmp;

    private final UnsafeBuffer out = new UnsafeBuffer(new byte[1024]);
    private final FixEncoder encoder = new FixEncoder(out);
    private final ByteBuffer outView = ByteBuffer.wrap(out.byteArray());
    private final ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
    private final UnsafeBuffer inBuffer = new UnsafeBuffer(in);
    private final FixDecoder decoder = new FixDecoder();
    private final byte[] sender = "ALLOC".getBytes(StandardCharsets.US_ASCII);
    private final byte[] target = "CHRONEX".getBytes(StandardCharsets.US_ASCII);
    private final byte[] symbol = "ACME".getBytes(StandardCharsets.US_ASCII);
    private int seq = 1;
    private long reports;

    @Test
    void ordersThatTradeAllocateNothingEndToEndInSteadyState() throws Exception {
        final Path root = Path.of(System.getProperty("chronex.root", "..")).toAbsolutePath().normalize();
        Files.copy(root.resolve("config/engine.yaml"), tmp.resolve("engine.yaml"));
        // Account 4: self-trade prevention off, so one session's buys and sells trade with each other.
        Files.writeString(tmp.resolve("gateway.yaml"), "port: 0\nengineConfig: engine.yaml\nsessions:\n  - {senderCompId: ALLOC, account: 4}\n");
        final GatewayConfig config = GatewayConfig.load(tmp.resolve("gateway.yaml"));
        final DataDirectory data = DataDirectory.open(tmp.resolve("data"));
        final EngineService engine = new EngineService(data, EngineConfigFile.load(tmp.resolve("engine.yaml")), 0, w -> { });
        final Gateway gateway = new Gateway(config, 1, 0, data, line -> { });
        try (SocketChannel client = SocketChannel.open(new InetSocketAddress("127.0.0.1", gateway.port()))) {
            client.configureBlocking(false);
            header(FixMsgTypes.LOGON).addLong(FixTags.ENCRYPT_METHOD, 0).addLong(FixTags.HEART_BT_INT, 30)
                .addBoolean(FixTags.RESET_SEQ_NUM_FLAG, true);
            send(client);
            while (reports == 0) {
                pump(gateway, engine, client);
            }
            reports = 0;
            final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
            trade(gateway, engine, client, PAIRS);
            final long before = threads.getCurrentThreadAllocatedBytes();
            trade(gateway, engine, client, PAIRS);
            final long allocated = threads.getCurrentThreadAllocatedBytes() - before;
            System.out.printf("gateway + engine + client, one thread: %d bytes allocated over %d orders (%.3f bytes/order)%n",
                allocated, 2 * PAIRS, allocated / (2.0 * PAIRS));
            // Allowance for the JIT's deoptimisation and the like; 360 bytes were seen over the whole run.
            assertTrue(allocated < 16 * 1024, allocated + " bytes allocated over " + 2 * PAIRS + " orders");
        } finally {
            gateway.close();
            engine.close();
        }
    }

    /** Each pair: a buy that rests, a sell that fills it; four reports (New, New, Trade, Trade). */
    private void trade(final Gateway gateway, final EngineService engine, final SocketChannel client, final int pairs) throws Exception {
        for (int i = 0; i < pairs; i++) {
            final long expected = reports + 4;
            order(client, '1');
            order(client, '2');
            while (reports < expected) {
                pump(gateway, engine, client);
            }
        }
    }

    private void order(final SocketChannel client, final char side) throws Exception {
        header(FixMsgTypes.NEW_ORDER_SINGLE).addLong(FixTags.CL_ORD_ID, seq).addAscii(FixTags.SYMBOL, symbol)
            .addChar(FixTags.SIDE, side).addUtcTimestamp(FixTags.TRANSACT_TIME, 1_795_349_467_123L).addLong(FixTags.ORDER_QTY, 1)
            .addChar(FixTags.ORD_TYPE, '2').addDecimal(FixTags.PRICE, 10000, 2);
        send(client);
    }

    private FixEncoder header(final int msgType) {
        return encoder.start(0, msgType).addAscii(FixTags.SENDER_COMP_ID, sender).addAscii(FixTags.TARGET_COMP_ID, target)
            .addLong(FixTags.MSG_SEQ_NUM, seq++).addUtcTimestamp(FixTags.SENDING_TIME, 1_795_349_467_123L);
    }

    private void send(final SocketChannel client) throws Exception {
        final int length = encoder.finish();
        outView.limit(encoder.messageOffset() + length).position(encoder.messageOffset());
        while (outView.hasRemaining()) {
            client.write(outView);
        }
    }

    private void pump(final Gateway gateway, final EngineService engine, final SocketChannel client) throws Exception {
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
                position += length;
            }
            inBuffer.putBytes(0, inBuffer, position, limit - position);
            in.position(limit - position);
        }
    }
}
