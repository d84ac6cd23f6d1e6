using System;
using System.Linq;
namespace Demo {
  public interface IShape { double Area(); }
  [Serializable]
  public sealed class Circle : IShape {
    private readonly double r;
    public Circle(double r) { this.r = r; }
    public double Area() => Math.PI * r * r;
    public string Name { get; set; } = "circle";
  }
  public static class Program {
    public static async Task<int> Main(string[] args) {
      var xs = args.Where(a => a.Length > 1).Select(a => a.ToUpper()).ToList();
      foreach (var x in xs) { Console.WriteLine($"{x}!"); }
      if (xs.Count == 0) return 1;
      await Task.Delay(10);
      return xs switch { [] => 0, _ => 2 };
    }
  }
}
