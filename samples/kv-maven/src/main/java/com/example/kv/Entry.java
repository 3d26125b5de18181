package com.example.kv;

/** A key and its value: what a client stores. */
public record Entry(String key, String value) {
}
