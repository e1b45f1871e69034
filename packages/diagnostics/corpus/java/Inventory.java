package org.example;

import java.util.ArrayList;
import java.util.List;

public class Inventory {
    private final List<String> names = new ArrayList<>();
    private int count;

    public void add(String name) {
        names.add(name);
        count += 1;
    }

    public int size() {
        return count;
    }

    public List<String> names() {
        return List.copyOf(names);
    }
}
