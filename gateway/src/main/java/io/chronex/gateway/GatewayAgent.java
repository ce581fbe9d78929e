package io.chronex.gateway;

import io.chronex.runtime.DutyCycle;
import io.chronex.runtime.RunFiles;
import io.chronex.runtime.tls.TlsIdentity;
import org.agrona.concurrent.Agent;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * bin/gateway's loop as an Agrona agent: one {@link Gateway#doWork} pass per duty cycle and a status
 * line a minute; at stop, the last status and latency lines, then every session logged out and the
 * queues closed, on the gateway's own thread.
 */
final class GatewayAgent implements Agent {
    private final Gateway gateway;
    private final int id;
    private final RunFiles log;
    private final String startedLine;
    private final DutyCycle.StatusClock status = DutyCycle.StatusClock.everyMinute();
    /** Null on a plain port; its certificate's end is warned of from {@link #EXPIRY_NOTICE} before, once an hour. */
    private final TlsIdentity tls;
    private static final Duration EXPIRY_NOTICE = Duration.ofDays(14);
    private long statusLines;
    /** A pass failed: the stop is not a clean one, and its last line must say so (scripts grep "gateway N stopping:"). */
    private boolean failed;

    GatewayAgent(final Gateway gateway, final int id, final RunFiles log, final String startedLine, final TlsIdentity tls) {
        this.gateway = gateway;
        this.tls = tls;
        this.id = id;
        this.log = log;
        this.startedLine = startedLine;
    }

    @Override
    public String roleName() {
        return "gateway-" + id;
    }

    /** Logged from the gateway's thread, so a SIGTERM sent once the line is seen stops it cleanly. */
    @Override
    public void onStart() {
        log.log("%s", startedLine);
        warnOfExpiry();
    }

    private void warnOfExpiry() {
        final String warning = tls == null ? null : tls.expiryWarning(Instant.now(), EXPIRY_NOTICE);
        if (warning != null) {
            log.log("warning: %s", warning);
        }
    }

    @Override
    public int doWork() throws IOException {
        final int work;
        try {
            work = gateway.doWork();
        } catch (final IOException | RuntimeException | Error e) {
            failed = true;
            throw e;
        }
        if (status.due()) {
            log.log("status: %s", gateway.status());
            if (++statusLines % 60 == 0) {
                warnOfExpiry();
            }
        }
        return work;
    }

    @Override
    public void onClose() {
        try {
            log.log(failed ? "gateway %d stopping after a failure: %s" : "gateway %d stopping: %s", id, gateway.status());
            log.log("return path latency: %s", gateway.latency());
        } finally {
            gateway.close();
        }
    }
}
