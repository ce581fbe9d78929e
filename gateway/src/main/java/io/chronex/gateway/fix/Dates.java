package io.chronex.gateway.fix;

/** Civil-calendar arithmetic without java.time, so timestamps are written and read with no allocation. */
final class Dates {
    private Dates() {
    }

    /** Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil). */
    static long daysFromCivil(final int year, final int month, final int day) {
        final int y = month <= 2 ? year - 1 : year;
        final int era = (y >= 0 ? y : y - 399) / 400;
        final int yearOfEra = y - era * 400;
        final int dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1;
        final int dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear;
        return era * 146097L + dayOfEra - 719468;
    }

    /** Year * 10000 + month * 100 + day of a day count since 1970-01-01 (the inverse of daysFromCivil). */
    static int civilFromDays(final long days) {
        final long z = days + 719468;
        final long era = (z >= 0 ? z : z - 146096) / 146097;
        final long dayOfEra = z - era * 146097;
        final long yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146096) / 365;
        final long dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
        final long mp = (5 * dayOfYear + 2) / 153;
        final int day = (int) (dayOfYear - (153 * mp + 2) / 5 + 1);
        final int month = (int) (mp < 10 ? mp + 3 : mp - 9);
        final long year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
        return (int) year * 10000 + month * 100 + day;
    }
}
