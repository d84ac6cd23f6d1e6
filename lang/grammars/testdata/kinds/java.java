package demo;
import java.util.*;
@SuppressWarnings("unchecked")
public class Main<T extends Comparable<T>> implements Runnable {
  private static final int MAX = 10;
  private final List<T> items = new ArrayList<>();
  public Main(List<T> xs) { this.items.addAll(xs); }
  @Override
  public void run() {
    for (T x : items) {
      if (x == null) { continue; }
      System.out.println(x.toString());
    }
    items.stream().filter(x -> x != null).map(Object::toString).forEach(System.out::println);
    try { throw new IllegalStateException("x"); } catch (RuntimeException e) { e.printStackTrace(); }
    int y = MAX > 2 ? 1 : 0;
    switch (y) { case 1 -> System.out.println(1); default -> {} }
  }
  enum Color { RED, GREEN }
  record Point(int x, int y) {}
}
