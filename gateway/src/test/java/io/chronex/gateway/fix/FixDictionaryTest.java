package io.chronex.gateway.fix;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The FIX 4.4 dictionary as read from QuickFIX/J's FIX44.xml: field types, enumerations, structure. */
class FixDictionaryTest {
    private final FixDictionary dictionary = FixDictionary.fix44();

    private static int type(final String msgType) {
        return FixMsgTypes.of(msgType);
    }

    private boolean inEnumeration(final int tag, final String value) {
        final byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        return dictionary.inEnumeration(tag, new UnsafeBuffer(bytes), 0, bytes.length);
    }

    /** The tags a scope's required members have, in dictionary order. */
    private static List<Integer> required(final FixScope scope) {
        final List<Integer> tags = new ArrayList<>();
        for (int m = scope.firstRequiredFrom(0); m < scope.tags.length; m = scope.firstRequiredFrom(m + 1)) {
            tags.add(scope.tags[m]);
        }
        return tags;
    }

    private static FixScope group(final FixScope scope, final int countTag) {
        return scope.groups[scope.indexOf(countTag)];
    }

    @Test
    void isLoadedOncePerJvm() {
        assertSame(dictionary, FixDictionary.fix44());
    }

    @Test
    void knowsEveryFix44MessageType() {
        for (final String t : new String[] {"0", "1", "2", "3", "4", "5", "A", "D", "F", "G", "q", "8", "9", "j", "r", "AE", "BH"}) {
            assertTrue(dictionary.knows(type(t)), t);
        }
        assertFalse(dictionary.knows(type("U")), "FIX 4.4 has no MsgType U");
        assertFalse(dictionary.knows(type("ZZ")));
        assertNull(dictionary.body(type("U")));
    }

    @Test
    void fieldsHaveTheirTypes() {
        assertEquals("Symbol", dictionary.name(55));
        assertTrue(dictionary.isDefined(956), "the highest FIX 4.4 tag");
        assertFalse(dictionary.isDefined(957));
        assertFalse(dictionary.isDefined(999));
        assertFalse(dictionary.isDefined(5001), "user-defined");
        assertFalse(dictionary.isDefined(0));
        assertNull(dictionary.name(999));
        assertEquals(FixFieldTypes.INT, dictionary.type(108));
        assertEquals(FixFieldTypes.COUNT, dictionary.type(34), "SEQNUM");
        assertEquals(FixFieldTypes.COUNT, dictionary.type(9), "LENGTH");
        assertEquals(FixFieldTypes.COUNT, dictionary.type(453), "NUMINGROUP");
        assertEquals(FixFieldTypes.DECIMAL, dictionary.type(38), "QTY");
        assertEquals(FixFieldTypes.DECIMAL, dictionary.type(44), "PRICE");
        assertEquals(FixFieldTypes.CHAR, dictionary.type(54));
        assertEquals(FixFieldTypes.BOOLEAN, dictionary.type(43));
        assertEquals(FixFieldTypes.STRING, dictionary.type(15), "CURRENCY");
        assertEquals(FixFieldTypes.MULTIPLE_VALUE_STRING, dictionary.type(18));
        assertEquals(FixFieldTypes.UTC_TIMESTAMP, dictionary.type(126));
        assertEquals(FixFieldTypes.UTC_TIME_ONLY, dictionary.type(273));
        assertEquals(FixFieldTypes.DATE, dictionary.type(272), "UTCDATEONLY");
        assertEquals(FixFieldTypes.DATE, dictionary.type(75), "LOCALMKTDATE");
        assertEquals(FixFieldTypes.MONTH_YEAR, dictionary.type(200));
        assertEquals(FixFieldTypes.DATA, dictionary.type(89));
        assertEquals(FixFieldTypes.STRING, dictionary.type(139), "a CHAR whose values include \"10\" is checked by its values");
    }

    @Test
    void enumerationsAreLookedUpByBytes() {
        assertTrue(inEnumeration(21, "1"));
        assertFalse(inEnumeration(21, "7"));
        assertTrue(inEnumeration(40, "2"));
        assertFalse(inEnumeration(40, "Z"));
        assertTrue(inEnumeration(54, "9"), "Side 9 is cross short in FIX 4.4");
        assertFalse(inEnumeration(54, "H"));
        assertTrue(inEnumeration(452, "38"));
        assertFalse(inEnumeration(452, "23"), "PartyRole has no 23 in FIX 4.4");
        assertFalse(inEnumeration(452, "038"));
        assertTrue(inEnumeration(532, "99"));
        assertTrue(inEnumeration(235, "INVERSEFLOATER"), "longer than a packed value");
        assertFalse(inEnumeration(235, "INVERSEFLOATEX"));
        assertTrue(inEnumeration(35, "AE"));
        assertFalse(dictionary.hasEnumeration(55));
        assertFalse(inEnumeration(55, "ACME"));
        assertFalse(dictionary.hasEnumeration(65), "SymbolSfx allows other values");
    }

    @Test
    void headerAndTrailerHaveTheirFieldsAndGroup() {
        final FixScope header = dictionary.header();
        assertEquals(27, header.tags.length);
        assertEquals(List.of(8, 9, 35, 49, 56, 34, 52), required(header));
        for (final int tag : new int[] {115, 128, 43, 97, 122, 369}) {
            assertTrue(header.indexOf(tag) >= 0, "header " + tag);
        }
        final FixScope hops = group(header, 627);
        assertArrayEquals(new int[] {628, 629, 630}, hops.tags);
        assertEquals(627, hops.countTag);
        assertArrayEquals(new int[] {93, 89, 10}, dictionary.trailer().tags);
        assertEquals(List.of(10), required(dictionary.trailer()));
    }

    @Test
    void bodiesExpandComponentsWithTheirRequiredFields() {
        final FixScope order = dictionary.body(type("D"));
        assertEquals(List.of(11, 55, 54, 60, 40), required(order), "Instrument and OrderQtyData are required, OrderQty is not");
        for (final int tag : new int[] {1, 21, 38, 44, 59, 126, 453, 18}) {
            assertTrue(order.indexOf(tag) >= 0, "NewOrderSingle " + tag);
        }
        assertEquals(-1, order.indexOf(448), "a group member is not at the top level");
        assertEquals(-1, order.indexOf(112));
        assertEquals(List.of(41, 11, 55, 54, 60), required(dictionary.body(type("F"))));
        assertEquals(List.of(41, 11, 55, 54, 60, 40), required(dictionary.body(type("G"))));
        assertEquals(List.of(11, 530, 60), required(dictionary.body(type("q"))));
        assertEquals(List.of(98, 108), required(dictionary.body(type("A"))));
        assertEquals(List.of(7, 16), required(dictionary.body(type("2"))));
        assertEquals(List.of(), required(dictionary.body(type("0"))));
    }

    @Test
    void groupsKeepTheirDelimiterOrderAndNesting() {
        final FixScope parties = group(dictionary.body(type("D")), 453);
        assertEquals(453, parties.countTag);
        assertArrayEquals(new int[] {448, 447, 452, 802}, parties.tags);
        assertArrayEquals(new int[] {523, 803}, group(parties, 802).tags);
        assertArrayEquals(new int[] {372, 385}, group(dictionary.body(type("A")), 384).tags);
        assertEquals(311, group(dictionary.body(type("F")), 711).tags[0], "a group that starts with a component: its first field");
        final FixScope orders = group(dictionary.body(type("E")), 73);
        assertEquals(List.of(11, 67, 55, 54), required(orders), "required per instance");
        assertEquals(4, dictionary.maxGroupDepth());
    }
}
