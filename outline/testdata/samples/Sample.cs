using System;
using System.Collections.Generic;

namespace App.Core
{
    public class Service : IService
    {
        private readonly int _count;
        public string Name { get; set; }
        public Service(int count) { _count = count; }
        public void Run() {}
        internal int Helper() => 1;
        public event EventHandler Changed;
    }

    interface IService
    {
        void Run();
    }

    public struct Point { public int X; }

    public enum Color { Red, Green }

    public record Person(string Name);

    public delegate void Notify(string msg);
}
