package demo
import scala.collection.mutable
trait Shape { def area: Double }
case class Circle(r: Double) extends Shape {
  override def area: Double = math.Pi * r * r
}
object Main extends App {
  val xs = List(1, 2, 3).map(_ * 2).filter(x => x > 2)
  var total = 0
  for (x <- xs if x > 1) total += x
  def describe(s: Shape): String = s match {
    case Circle(r) if r > 1 => s"big $r"
    case _ => "other"
  }
  println(describe(Circle(2.0)))
  implicit val ord: Ordering[Int] = Ordering.Int
  try { sys.error("x") } catch { case e: Exception => () }
}
