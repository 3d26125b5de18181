package org.sessionj.examples.portal;

/**
 * An appointment.
 *
 * @param date the day, ISO-8601 ({@code 2026-11-23})
 * @param time the time of day ({@code 14:30})
 * @param title what it is
 */
public record CalendarEntry(String date, String time, String title) {
}
