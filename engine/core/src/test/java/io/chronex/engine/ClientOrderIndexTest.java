package io.chronex.engine;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

/** The client-id index agrees with a HashMap under random adds and removes, through growth and back-shifts. */
class ClientOrderIndexTest {
    private record Key(long account, long clientOrderId) {
    }

    @Test
    void agreesWithAHashMapUnderRandomAddsAndRemoves() {
        final SplittableRandom random = new SplittableRandom(3);
        final ClientOrderIndex index = new ClientOrderIndex(4);
        final Map<Key, Order> expected = new HashMap<>();
        final List<Order> live = new ArrayList<>();
        for (int step = 0; step < 300_000; step++) {
            // Few accounts and small ids: many pairs share a home slot and long probe runs form.
            final long account = random.nextInt(6);
            final long clientOrderId = random.nextInt(400) - 50;
            final Key key = new Key(account, clientOrderId);
            assertSame(expected.get(key), index.get(account, clientOrderId));
            if (expected.containsKey(key)) {
                final Order order = expected.remove(key);
                index.remove(order);
                live.remove(order);
                assertNull(index.get(account, clientOrderId));
            } else if (random.nextInt(3) != 0 || live.isEmpty()) {
                final Order order = new Order();
                order.accountId = account;
                order.clientOrderId = clientOrderId;
                index.add(order);
                expected.put(key, order);
                live.add(order);
            } else {
                final Order order = live.remove(random.nextInt(live.size()));
                expected.remove(new Key(order.accountId, order.clientOrderId));
                index.remove(order);
            }
            assertEquals(expected.size(), index.size());
        }
        for (final Map.Entry<Key, Order> entry : expected.entrySet()) {
            assertSame(entry.getValue(), index.get(entry.getKey().account(), entry.getKey().clientOrderId()));
        }
    }
}
