package demo.inventory;

public class Main {
    public static void main(String[] args) throws Exception {
        Inventory inv = new Inventory();
        inv.add("a-1", "Apple", 10);
        inv.add("b-2", "Banana", 3);
        if (!inv.remove("a-1", 4)) {
            System.err.println("could not remove");
        }
        try {
            inv.add("c-3", "Cherry", 0);
        } catch (IllegalArgumentException e) {
            System.out.println("rejected: " + e.getMessage());
        }
        for (String sku : inv.lowStock(5)) {
            System.out.println("low: " + sku);
        }
        System.out.println(inv);
    }
}
