package io.chronex.gateway.fix;

import org.agrona.DirectBuffer;

/**
 * The FIX 4.4 field types a value is checked against, as small numbers, and the checks themselves:
 * allocation-free reads of the value's bytes. The formats are FIX 4.4's (Volume 1, "Data types").
 */
final class FixFieldTypes {
    /** A tag the dictionary does not define. */
    static final byte NOT_DEFINED = 0;
    /** INT: digits with an optional leading '-'; leading zeros allowed. */
    static final byte INT = 1;
    /** LENGTH, SEQNUM, NUMINGROUP: digits only (EndSeqNo 0 means "infinity", so 0 is a valid SEQNUM). */
    static final byte COUNT = 2;
    /** FLOAT, QTY, PRICE, PRICEOFFSET, AMT, PERCENTAGE: digits with at most one '.' and an optional leading '-'. */
    static final byte DECIMAL = 3;
    /** CHAR: one byte. */
    static final byte CHAR = 4;
    /** BOOLEAN: Y or N. */
    static final byte BOOLEAN = 5;
    /** STRING, CURRENCY, EXCHANGE, COUNTRY: any bytes. */
    static final byte STRING = 6;
    /** MULTIPLEVALUESTRING: tokens separated by single spaces. */
    static final byte MULTIPLE_VALUE_STRING = 7;
    /** UTCTIMESTAMP: YYYYMMDD-HH:MM:SS[.fraction], 1 to 9 fraction digits as FixDecoder.utcTimestampMillis reads. */
    static final byte UTC_TIMESTAMP = 8;
    /** UTCTIMEONLY: HH:MM:SS[.fraction]. */
    static final byte UTC_TIME_ONLY = 9;
    /** UTCDATEONLY and LOCALMKTDATE: YYYYMMDD, a real calendar date. */
    static final byte DATE = 10;
    /** MONTHYEAR: YYYYMM, YYYYMMDD or YYYYMMwN (week 1 to 5). */
    static final byte MONTH_YEAR = 11;
    /** DATA: opaque bytes, never checked. */
    static final byte DATA = 12;

    /** The names Reject texts use, by type. */
    private static final String[] NAMES = {"undefined", "int", "non-negative int", "decimal", "char", "boolean (Y or N)",
        "string", "multiple value string", "UTCTimestamp (YYYYMMDD-HH:MM:SS[.sss])", "UTCTimeOnly (HH:MM:SS[.sss])",
        "date (YYYYMMDD)", "MonthYear (YYYYMM[DD|wN])", "data"};

    // HH:MM:SS[.fraction] from where the time starts.
    private static final int TIME_LENGTH = 8;
    private static final int MAX_FRACTION_DIGITS = 9;
    private static final int DATE_LENGTH = 8;
    private static final int MONTH_LENGTH = 6;

    private FixFieldTypes() {
    }

    /** The type of a QuickFIX/J dictionary type name; an unknown name is an error, so no new type passes unchecked. */
    static byte of(final String quickFixType) {
        return switch (quickFixType) {
            case "INT" -> INT;
            case "LENGTH", "SEQNUM", "NUMINGROUP" -> COUNT;
            case "FLOAT", "QTY", "PRICE", "PRICEOFFSET", "AMT", "PERCENTAGE" -> DECIMAL;
            case "CHAR" -> CHAR;
            case "BOOLEAN" -> BOOLEAN;
            case "STRING", "CURRENCY", "EXCHANGE", "COUNTRY" -> STRING;
            case "MULTIPLEVALUESTRING" -> MULTIPLE_VALUE_STRING;
            case "UTCTIMESTAMP" -> UTC_TIMESTAMP;
            case "UTCTIMEONLY" -> UTC_TIME_ONLY;
            case "UTCDATEONLY", "LOCALMKTDATE" -> DATE;
            case "MONTHYEAR" -> MONTH_YEAR;
            case "DATA" -> DATA;
            default -> throw new IllegalArgumentException("FIX field type " + quickFixType + " is not known to the validator");
        };
    }

    static String name(final byte type) {
        return NAMES[type];
    }

    /** Whether [offset, offset + length) is a value of the type; values are never empty (the decoder refuses those). */
    static boolean valid(final byte type, final DirectBuffer buf, final int offset, final int length) {
        return switch (type) {
            case INT -> buf.getByte(offset) == '-' ? digits(buf, offset + 1, length - 1) : digits(buf, offset, length);
            case COUNT -> digits(buf, offset, length);
            case DECIMAL -> decimal(buf, offset, length);
            case CHAR -> length == 1;
            case BOOLEAN -> length == 1 && (buf.getByte(offset) == 'Y' || buf.getByte(offset) == 'N');
            case MULTIPLE_VALUE_STRING -> tokens(buf, offset, length);
            case UTC_TIMESTAMP -> length > DATE_LENGTH && date(buf, offset) && buf.getByte(offset + DATE_LENGTH) == '-'
                && time(buf, offset + DATE_LENGTH + 1, length - DATE_LENGTH - 1);
            case UTC_TIME_ONLY -> time(buf, offset, length);
            case DATE -> length == DATE_LENGTH && date(buf, offset);
            case MONTH_YEAR -> monthYear(buf, offset, length);
            default -> true;
        };
    }

    /** At least one digit and nothing else. */
    private static boolean digits(final DirectBuffer buf, final int offset, final int length) {
        if (length <= 0) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (!isDigit(buf.getByte(offset + i))) {
                return false;
            }
        }
        return true;
    }

    /** As FixDecoder.scaledDecimal reads: "-1.5", "100", ".5" and "5." are decimals; "", "-", "." and "1.2.3" are not. */
    private static boolean decimal(final DirectBuffer buf, final int offset, final int length) {
        int i = buf.getByte(offset) == '-' ? 1 : 0;
        boolean point = false;
        boolean digit = false;
        for (; i < length; i++) {
            final byte b = buf.getByte(offset + i);
            if (b == '.' && !point) {
                point = true;
            } else if (isDigit(b)) {
                digit = true;
            } else {
                return false;
            }
        }
        return digit;
    }

    /** Non-empty tokens separated by single spaces. */
    private static boolean tokens(final DirectBuffer buf, final int offset, final int length) {
        boolean afterSpace = true;
        for (int i = 0; i < length; i++) {
            final boolean space = buf.getByte(offset + i) == ' ';
            if (space && afterSpace) {
                return false;
            }
            afterSpace = space;
        }
        return !afterSpace;
    }

    /** HH:MM:SS, then nothing or '.' and 1 to 9 digits; seconds up to 60, for a leap second. */
    private static boolean time(final DirectBuffer buf, final int offset, final int length) {
        if (length != TIME_LENGTH && (length < TIME_LENGTH + 2 || length > TIME_LENGTH + 1 + MAX_FRACTION_DIGITS
            || buf.getByte(offset + TIME_LENGTH) != '.' || !digits(buf, offset + TIME_LENGTH + 1, length - TIME_LENGTH - 1))) {
            return false;
        }
        return buf.getByte(offset + 2) == ':' && buf.getByte(offset + 5) == ':'
            && upTo(buf, offset, 23) && upTo(buf, offset + 3, 59) && upTo(buf, offset + 6, 60);
    }

    /** YYYYMMDD at offset (the caller knows there are 8 bytes): a day that exists in that month of that year. */
    private static boolean date(final DirectBuffer buf, final int offset) {
        final int year = number(buf, offset, 4);
        final int month = number(buf, offset + 4, 2);
        final int day = number(buf, offset + 6, 2);
        return year >= 0 && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
    }

    private static boolean monthYear(final DirectBuffer buf, final int offset, final int length) {
        if (length == MONTH_LENGTH) {
            final int month = number(buf, offset + 4, 2);
            return number(buf, offset, 4) >= 0 && month >= 1 && month <= 12;
        }
        if (length != DATE_LENGTH) {
            return false;
        }
        if (buf.getByte(offset + MONTH_LENGTH) == 'w') {
            final byte week = buf.getByte(offset + MONTH_LENGTH + 1);
            return monthYear(buf, offset, MONTH_LENGTH) && week >= '1' && week <= '5';
        }
        return date(buf, offset);
    }

    private static int daysInMonth(final int year, final int month) {
        if (month == 2) {
            return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28;
        }
        return month == 4 || month == 6 || month == 9 || month == 11 ? 30 : 31;
    }

    /** Two digits at offset, 00 to max. */
    private static boolean upTo(final DirectBuffer buf, final int offset, final int max) {
        final int value = number(buf, offset, 2);
        return value >= 0 && value <= max;
    }

    /** The decimal number in count digits at offset, or -1 if one of them is not a digit. */
    private static int number(final DirectBuffer buf, final int offset, final int count) {
        int value = 0;
        for (int i = 0; i < count; i++) {
            final byte b = buf.getByte(offset + i);
            if (!isDigit(b)) {
                return -1;
            }
            value = value * 10 + (b - '0');
        }
        return value;
    }

    private static boolean isDigit(final byte b) {
        return b >= '0' && b <= '9';
    }
}
