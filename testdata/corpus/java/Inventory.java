package demo.inventory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** An in-memory inventory of items, keyed by SKU. */
public class Inventory {
    private final Map<String, Item> items = new HashMap<>();
    private int version = 0;

    public static final class Item {
        final String sku;
        final String name;
        int count;

        Item(String sku, String name, int count) {
            this.sku = sku;
            this.name = name;
            this.count = count;
        }
    }

    public void add(String sku, String name, int count) {
        if (count <= 0) {
            throw new IllegalArgumentException("count must be positive: " + count);
        }
        Item existing = items.get(sku);
        if (existing != null) {
            existing.count += count;
        } else {
            items.put(sku, new Item(sku, name, count));
        }
        version++;
    }

    public boolean remove(String sku, int count) {
        Item item = items.get(sku);
        if (item == null || item.count < count) {
            return false;
        }
        item.count -= count;
        if (item.count == 0) {
            items.remove(sku);
        }
        version++;
        return true;
    }

    public Optional<Item> find(String sku) {
        return Optional.ofNullable(items.get(sku));
    }

    public List<String> lowStock(int threshold) {
        List<String> out = new ArrayList<>();
        for (Item item : items.values()) {
            if (item.count < threshold) {
                out.add(item.sku);
            }
        }
        // TODO: sort by count
        return out;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Map.Entry<String, Item> e : items.entrySet()) {
            sb.append(e.getKey()).append('=').append(e.getValue().count).append('\n');
        }
        System.out.println("inventory version " + version);
        return sb.toString();
    }
}
